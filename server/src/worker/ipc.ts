// Messages between the server and a worker process over Node's IPC channel.
import type { FaultRule, Params, StampedWorkerEvent } from '@racelab/shared';

/** Everything a pooled worker needs to play its part in one run. */
export interface WorkerPlan {
  runId: string;
  workerId: string;
  /** Every worker of the run, in order; worker ids are "worker-1", "worker-2", … */
  workerIds: string[];
  scenario: string;
  variant: string;
  params: Params;
  /** The run's date (UTC, YYYY-MM-DD). */
  date: string;
  /** The run's start on the host-wide monotonic clock, ns, as a decimal string. */
  runStartNs: string;
  /** Prefix of every Redis key of this run, e.g. "racelab:3f9c1a:". */
  keyPrefix: string;
  /** The run's own PostgreSQL schema, already created. */
  schema: string;
  faults: FaultRule[];
  /** What the scenario's setup shares with every worker. */
  shared: Record<string, string | number>;
}

export type ToWorker =
  | { kind: 'plan'; plan: WorkerPlan }
  /** Answers a wait, barrier or checkpoint request with the same id; `name` is the latch that was set. */
  | { kind: 'released'; id: number; name?: string };

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'event'; event: StampedWorkerEvent }
  | { kind: 'signal'; name: string }
  | { kind: 'wait'; id: number; names: string[] }
  | { kind: 'barrier'; id: number; name: string }
  | { kind: 'checkpoint'; id: number; name: string }
  | { kind: 'stall'; id: number; ms: number }
  | { kind: 'die' }
  | { kind: 'finished'; error?: string };
