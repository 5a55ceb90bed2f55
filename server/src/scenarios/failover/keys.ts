// The failover scenario's names: the Redis deployment Sentinel watches, and keys
// (without the run's prefix).

/** The name workers ask Sentinel for: "where is the primary of `locks` now?" */
export const SENTINEL_NAME = 'locks';
/** The lock, on the Redis that fails over. */
export const LOCK_KEY = 'lock:document';

// On the run's main Redis, which does not fail over:
/** List the first worker pushes to once it has decided about its lock: the outage starts. */
export const OUTAGE_START_KEY = 'choreography:outage-start';
/** List the run's outage pushes its record to once Sentinel has promoted a replica. */
export const OUTAGE_OVER_KEY = 'choreography:outage-over';

/** The run's Redis nodes, as the timeline's truth lanes name them. */
export const NODES = {
  primary: 'primary',
  near: 'near replica',
  far: 'far replica',
  far2: 'far replica 2',
} as const;
