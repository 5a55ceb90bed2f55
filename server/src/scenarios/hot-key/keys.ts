// The hot-key scenario's Redis key names, without the run's prefix.

/** The global lock; the per-entity locks add ":<entity>". */
export const LOCK_KEY = 'lock:sync';
/** Choreography: each job's state, "started" or the lock it waits for; jobs started per customer. */
export const STATE_KEY = 'choreography:state';
export const STARTED_KEY = 'choreography:started';
