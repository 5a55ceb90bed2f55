// Declared parameter sets (the manifest's stabilityParams) where the release's near-misses
// show, named once: the manifest declares them and each mutant fails at one of them.

/** worker-1's fetch outlasts its 2 s lease and fails: worker-2 has the lock when worker-1 releases. */
export const OVERRUN_THEN_FAIL = { workers: 3, arrival: 'late', leaseMs: 2000, workMs: 3000, failure: 'first-fails' };

/** worker-1's fetch fails after 100 ms, well inside its 3 s lease. */
export const FAIL_INSIDE_THE_LEASE = { workers: 3, arrival: 'late', leaseMs: 3000, workMs: 100, failure: 'first-fails' };
