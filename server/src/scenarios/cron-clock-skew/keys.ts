// The cron-clock-skew scenario's Redis key names, without the run's prefix.

/** The batch's lock; both variants add the schedule slot: "lock:invoice-batch:slot-0". */
export const LOCK_KEY = 'lock:invoice-batch';
/** Choreography: when slot 0 starts (ms since the epoch), as node-1 fixed it. */
export const SLOT_START_KEY = 'choreography:slot-start';

/**
 * Choreography: when the slot lock's holder asked its lease to end (true time, ms since the
 * epoch), by the clock reading it sized the lease from; the slot's name follows.
 */
export const LEASE_END_KEY = 'choreography:lease-end';

/** The slot lock's name for a slot number. */
export const slotName = (slot: number): string => `slot-${slot}`;

/** A key of one slot (unprefixed): LOCK_KEY or LEASE_END_KEY with the slot's name, "lock:invoice-batch:slot-0". */
export const slotKey = (key: typeof LOCK_KEY | typeof LEASE_END_KEY, slot: number): string => `${key}:${slotName(slot)}`;
