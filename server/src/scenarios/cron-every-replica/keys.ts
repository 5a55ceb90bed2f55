// The cron-every-replica scenario's Redis key names, without the run's prefix.
import { slotName } from './schedule.js';

/** Choreography: when the first slot starts (ms since the epoch), as replica-1 fixed it on its clock, the true one. */
export const FIRST_SLOT_KEY = 'choreography:first-slot';

/** lock-per-slot's lock: the report's name and the slot, "lock:report:02:31:05". */
export const slotLockKey = (slot: string): string => `lock:report:${slot}`;

/** The lock key of the slot that starts at `startMs` (ms since the epoch). */
export const lockKeyAt = (startMs: number): string => slotLockKey(slotName(new Date(startMs)));
