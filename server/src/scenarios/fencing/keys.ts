// The fencing scenario's Redis key names, without the run's prefix.

/** The lease on the document. */
export const LOCK_KEY = 'lock:document';
/** The counter the fenced variant takes its fence numbers from. */
export const FENCE_KEY = 'fence';
