// The event-loop-block scenario's Redis key names, without the run's prefix.

/** The lease on the statement. */
export const LOCK_KEY = 'lock:statement';
/** The counter the fenced variant takes its fence numbers from. */
export const FENCE_KEY = 'fence';
