// The schedule every replica runs and the replicas' clocks. Each replica starts the same
// croner job, "every two seconds" (a nightly report, scaled down so a run takes seconds), by its
// own wall clock, and replica-k's clock is (k-1) × skewMs behind replica-1's, so replica-k
// fires (k-1) × skewMs late in real time. Where libfaketime is installed the process's own
// wall clock is moved and croner reads it as it is; elsewhere replicaClock.ts moves it in the process.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';

/** croner's six-field pattern (seconds first): a run due at every even second. */
export const PATTERN = '*/2 * * * * *';
/** How long one slot of PATTERN lasts, in ms: its runs are the multiples of it since the epoch. */
export const SLOT_MS = 2000;

export function replicaIds(params: Params): string[] {
  return Array.from({ length: intParam(params, 'replicas') }, (_, i) => `replica-${i + 1}`);
}

/** When replica i fires, in real ms after the slot starts on a correct clock. */
export const dueAtMs = (params: Params, index: number): number => index * intParam(params, 'skewMs');

/** Each replica's clock against the host's, in ms, in replica order (replica-1's is the true one). */
export const clockOffsetsMs = (params: Params): number[] => replicaIds(params).map((_, i) => -dueAtMs(params, i));

/** The slot a run of the schedule is for: the second it was due at, e.g. "02:31:04" (UTC). */
export const slotName = (dueAt: Date): string => dueAt.toISOString().slice(11, 19);
