// Faults, as a plan and as a live command: the one schema of a fault rule and the names
// of what a fault does, for the page, the server, the CLI and recorded runs alike.
import { z } from 'zod';

/**
 * What a planned fault does at its checkpoint: SIGKILL the process, SIGSTOP it for `ms`, or
 * partition it (its lab host's link set down) for `ms`, or to the run's end without `ms`;
 * or isolate a lab node (`node`) from every worker for `ms`, then rejoin it, or to the
 * run's end without `ms`; or slow a lab node (`node`): `latencyMs` added each way to every
 * worker's traffic with it, and `lossPercent` of it lost, for `ms` or to the run's end.
 */
export const PlannedFaultAction = z.enum(['kill', 'stall', 'partition', 'isolate', 'slow']);
export type PlannedFaultAction = z.infer<typeof PlannedFaultAction>;

/**
 * What the page may do to a live worker: SIGSTOP, SIGCONT or SIGKILL its process; or, when it
 * runs as a lab host of its own, cut its link (partition) and set it up again (heal). And to
 * a lab node (a Redis node of redlock): cut it from every worker (isolate), and let it
 * reach them again (rejoin); slow every worker's traffic with it (slow), and bring it back
 * to full speed (restore).
 */
export const LiveFaultAction = z.enum(['pause', 'resume', 'kill', 'partition', 'heal', 'isolate', 'rejoin', 'slow', 'restore']);
export type LiveFaultAction = z.infer<typeof LiveFaultAction>;

/** Longest stall a plan may ask for, in ms, before the run's time scale stretches it. */
export const MAX_STALL_MS = 60_000;

/** Most latency a slow may add, in ms each way: past a few seconds every client has timed out anyway. */
export const MAX_LATENCY_MS = 5000;
/** Most loss a slow may ask for, in percent: past half, a TCP stream barely moves and the run only waits. */
export const MAX_LOSS_PERCENT = 50;

/** For slow: ms added to every byte between a worker and the node, each way (1 … MAX_LATENCY_MS). */
export const LatencyMs = z
  .number({ error: 'latencyMs is a number of ms' })
  .int('latencyMs is a whole number of ms')
  .min(1, `latencyMs is 1 to ${MAX_LATENCY_MS} ms`)
  .max(MAX_LATENCY_MS, `latencyMs is 1 to ${MAX_LATENCY_MS} ms`);
/** For slow: the share of the traffic lost, in percent (0 … MAX_LOSS_PERCENT); absent: none. */
export const LossPercent = z
  .number({ error: 'lossPercent is a number' })
  .min(0, `lossPercent is 0 to ${MAX_LOSS_PERCENT}`)
  .max(MAX_LOSS_PERCENT, `lossPercent is 0 to ${MAX_LOSS_PERCENT}`);

/** Where a fault on a lab node is named by an action: an isolate and a slow name their node. */
const namesANode = (action: string): boolean => action === 'isolate' || action === 'slow';

/**
 * Where a fault strikes: a named step of a variant's code, for a chosen worker. Strict: a
 * field the protocol does not know is refused, never ignored. `ms` is not capped here,
 * because a run at speed 0.25 stretches a stall four times (see `PlannedFault`).
 */
export const FaultRule = z.strictObject({
  /** Checkpoint name declared by the variant, e.g. "after-setnx". */
  checkpoint: z.string().min(1).max(100),
  /** "first" is the first worker to reach the checkpoint; otherwise a worker id. */
  target: z.string().min(1).max(40),
  action: PlannedFaultAction,
  /**
   * For stall: how long the process stays stopped, in ms; for partition: how long the link
   * stays down; for isolate: how long the node stays cut before it rejoins; for slow: how
   * long it stays slow before it is restored (absent: to the run's end).
   */
  ms: z.number().int().min(0).optional(),
  /** For isolate: the lab node cut from every worker, e.g. "node-3"; for slow: the node slowed. */
  node: z.string().min(1).max(40).optional(),
  latencyMs: LatencyMs.optional(),
  lossPercent: LossPercent.optional(),
});
export type FaultRule = z.infer<typeof FaultRule>;

/** A fault rule as a page or the CLI may ask for it: a stall, a partition, an isolate or a slow of at most MAX_STALL_MS. */
export const PlannedFault = FaultRule.refine((rule) => rule.ms === undefined || rule.ms <= MAX_STALL_MS, {
  path: ['ms'],
  message: `a stall, a partition, an isolate or a slow lasts at most ${MAX_STALL_MS} ms`,
})
  .refine((rule) => namesANode(rule.action) === (rule.node !== undefined), {
    path: ['node'],
    message: 'an isolate or a slow names its node, and only these name one',
  })
  .refine((rule) => (rule.action === 'slow') === (rule.latencyMs !== undefined), {
    path: ['latencyMs'],
    message: 'a slow names its latencyMs, and only a slow names one',
  })
  .refine((rule) => rule.action === 'slow' || rule.lossPercent === undefined, {
    path: ['lossPercent'],
    message: 'only a slow names a lossPercent',
  });
