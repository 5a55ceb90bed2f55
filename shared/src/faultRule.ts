// Faults, as a plan and as a live command: the one schema of a fault rule and the names
// of what a fault does, for the page, the server, the CLI and recorded runs alike.
import { z } from 'zod';

/** What a planned fault does at its checkpoint: SIGKILL the process, or SIGSTOP it for `ms`. */
export const PlannedFaultAction = z.enum(['kill', 'stall']);
export type PlannedFaultAction = z.infer<typeof PlannedFaultAction>;

/** What the page may do to a live worker process: SIGSTOP, SIGCONT or SIGKILL it. */
export const LiveFaultAction = z.enum(['pause', 'resume', 'kill']);
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
  /** Only for stall: how long the process stays stopped, in ms. */
  ms: z.number().int().min(0).optional(),
});
export type FaultRule = z.infer<typeof FaultRule>;

/** A fault rule as a page or the CLI may ask for it: a stall of at most MAX_STALL_MS. */
export const PlannedFault = FaultRule.refine((rule) => rule.ms === undefined || rule.ms <= MAX_STALL_MS, {
  path: ['ms'],
  message: `a stall lasts at most ${MAX_STALL_MS} ms`,
});
