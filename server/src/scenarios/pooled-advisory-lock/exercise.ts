// pooled-advisory-lock as an exercise: session-lock's lock belongs to PgBouncer's server
// connection, which both workers share; the learner holds a transaction-level lock instead.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'session-lock',
  solution: 'xact-lock',
  hints: [
    'In transaction pooling mode a client owns a server connection only for the length of a transaction; a session-level lock stays with the connection, which PgBouncer lends to the other worker, and the lock is re-entrant there. Hold the lock for exactly one transaction.',
    'Open a transaction with BEGIN on the pooled connection, take pg_advisory_xact_lock(hashtextextended($1, 0)) inside it, and end it with COMMIT: PostgreSQL releases the lock at the end of the transaction, and PgBouncer keeps the connection for this client until then.',
    "In run(job): await job.pooled.query('begin'), then the pg_advisory_xact_lock query with job.lockName, then await job.work(), then commit (rollback in a catch); drop the pg_advisory_unlock call, since the commit releases the lock.",
  ],
  setReasons: [
    'worker-1 works 300 ms under the lock: worker-2 must wait for it, not share its backend and its lock',
    'worker-1 works 3 s under the lock: worker-2 must still wait for the end of its transaction',
  ],
};
