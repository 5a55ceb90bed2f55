// The hot-key scenario's Redis key names, without the run's prefix.

/** The global lock; the per-entity locks add ":<entity>". */
export const LOCK_KEY = 'lock:sync';
/** Lock-set of jobs inside their work right now (Jepsen's trick), and the largest size it reached. */
export const RUNNING_KEY = 'running';
export const RUNNING_MAX_KEY = 'running:max';
/** The largest number of jobs of one entity that were inside their work at once. */
export const ENTITY_MAX_KEY = 'running:max-per-entity';
/** Choreography: each job's state, "started" or the lock it waits for; jobs started per customer. */
export const STATE_KEY = 'choreography:state';
export const STARTED_KEY = 'choreography:started';
