// Messages between the server and a worker process over Node's IPC channel (relayed as they
// are by a worker agent, for a worker on another host), and the server's handle on a worker.
import type { FaultRule, Params, StampedWorkerEvent, StepAt } from '@racelab/shared';

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
  /** The run's own store users, where the stores allow them (worker/runLogin.ts); absent: the server's. */
  credentials?: RunCredentials;
  /** An exercise's edited variant: the compiled module (a file URL) this worker plays instead of the catalog's `variant`. */
  editedModule?: string;
  /**
   * An explored run: every store command, checkpoint and pause waits for the server's go
   * (`step`), and the choreography steps aside (waits and barriers pass at once): the
   * schedule, not the scenario, decides the order.
   */
  explore?: true;
  /**
   * The worker may serve another run after this one instead of exiting: it says so in its
   * 'finished' (`stays`) when its part ended well and left nothing behind, and the server
   * answers `stay` or `leave` (worker/workerMain.ts, runs/runProcesses.ts). Set only for a run
   * of racelab's own code on the server's warm, local processes (runs/runSetting.ts keepsWorkers).
   */
  keepWarm?: true;
}

/**
 * A run's own users of the stores, made with the run and dropped with it: a Redis ACL user
 * limited to the run's key prefix and a PostgreSQL role limited to the run's schema. Each
 * is absent where that store refused them at the server's start.
 */
export interface RunCredentials {
  redis?: { username: string; password: string };
  postgres?: { role: string; password: string };
}

export type ToWorker =
  | { kind: 'plan'; plan: WorkerPlan }
  /** Answers a wait, barrier or checkpoint request with the same id; `name` is the latch that was set. */
  | { kind: 'released'; id: number; name?: string }
  /** Answers a 'finished' that offered to stay: go back to the pool (fresh connections, then 'ready'), or exit. */
  | { kind: 'stay' }
  | { kind: 'leave' };

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'event'; event: StampedWorkerEvent }
  | { kind: 'signal'; name: string }
  | { kind: 'wait'; id: number; names: string[] }
  | { kind: 'barrier'; id: number; name: string }
  | { kind: 'checkpoint'; id: number; name: string }
  | { kind: 'stall'; id: number; ms: number }
  /** An explored run's scheduling point: the worker goes on once released. */
  | { kind: 'step'; id: number; step: StepAt }
  | { kind: 'die' }
  /** Its part is over. `stays`: its connections are closed and it offers to serve the next run (see WorkerPlan.keepWarm). */
  | { kind: 'finished'; error?: string; stays?: true };

/**
 * The server's handle on one worker process: a ChildProcess it forked (IPC), or a worker an
 * agent forked on another host and relays over the network (agents/remoteWorker.ts). The
 * pool and a run's processes use only this, so both kinds are driven alike.
 */
export interface WorkerProcess {
  /** The process id, on the host it runs on. */
  readonly pid?: number;
  /** Where it runs when that is not this server: the agent's name. Absent for the server's own child. */
  readonly host?: string;
  /** Why the server lost it without an exit status (its agent went), once it has; its 'exit' then says (null, null). */
  readonly lost?: string;
  /** Why it ended, in a learner's words, when what it left says (edited code out of memory, refused): read once it has exited. */
  readonly endedBecause?: () => string | null;
  readonly connected: boolean;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  send(message: ToWorker, callback?: (error: Error | null) => void): boolean;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'message', listener: (message: FromWorker) => void): this;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  once(event: 'message', listener: (message: FromWorker) => void): this;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
  /** Its message channel closed: every message it sent has been emitted. */
  once(event: 'disconnect', listener: () => void): this;
  off(event: 'message', listener: (message: FromWorker) => void): this;
  off(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  off(event: 'error', listener: (error: Error) => void): this;
}
