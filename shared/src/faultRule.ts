// Faults, as a plan and as a live command: the one schema of a fault rule and the names
// of what a fault does, for the page, the server, the CLI and recorded runs alike.
import { z } from 'zod';

/**
 * What a planned fault does at its checkpoint: SIGKILL the process, SIGSTOP it for `ms`, or
 * partition it (its lab host's link set down) for `ms`, or to the run's end without `ms`;
 * or isolate a lab node (`node`) from every worker for `ms`, then rejoin it, or to the
 * run's end without `ms`.
 */
export const PlannedFaultAction = z.enum(['kill', 'stall', 'partition', 'isolate']);
export type PlannedFaultAction = z.infer<typeof PlannedFaultAction>;

/**
 * What the page may do to a live worker: SIGSTOP, SIGCONT or SIGKILL its process; or, when it
 * runs as a lab host of its own, cut its link (partition) and set it up again (heal). And to
 * a lab node (a Redis node of redlock): cut it from every worker (isolate), and let it
 * reach them again (rejoin).
 */
export const LiveFaultAction = z.enum(['pause', 'resume', 'kill', 'partition', 'heal', 'isolate', 'rejoin']);
export type LiveFaultAction = z.infer<typeof LiveFaultAction>;

/** Longest stall a plan may ask for, in ms, before the run's time scale stretches it. */
export const MAX_STALL_MS = 60_000;

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
   * stays down; for isolate: how long the node stays cut before it rejoins (absent: to the run's end).
   */
  ms: z.number().int().min(0).optional(),
  /** For isolate: the lab node cut from every worker, e.g. "node-3". */
  node: z.string().min(1).max(40).optional(),
});
export type FaultRule = z.infer<typeof FaultRule>;

/** A fault rule as a page or the CLI may ask for it: a stall, a partition or an isolate of at most MAX_STALL_MS. */
export const PlannedFault = FaultRule.refine((rule) => rule.ms === undefined || rule.ms <= MAX_STALL_MS, {
  path: ['ms'],
  message: `a stall, a partition or an isolate lasts at most ${MAX_STALL_MS} ms`,
}).refine((rule) => (rule.action === 'isolate') === (rule.node !== undefined), {
  path: ['node'],
  message: 'an isolate names its node, and only an isolate names one',
});
