// failover as an exercise: plain-lock's lock is lost when the primary dies before its
// replica has it; the learner fences the write with a counter that does not fail over.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'plain-lock',
  solution: 'pg-fence',
  hints: [
    "The lock was not outlived, it was lost: the replica Sentinel promotes never had worker-1's key, so worker-2 takes the same lock and both write. Nothing in Redis can know that; let the row refuse the older holder's write, by a number that survives the failover.",
    "Take each grant's number from a counter that does not fail over with Redis, a PostgreSQL row: UPDATE fences SET n = n + 1 WHERE name = 'document' RETURNING n; and guard the write: UPDATE documents SET …, fence = $n WHERE id = 1 AND fence < $n.",
    'Keep the SET NX PX on job.lockRedis (job.denied() when refused); right after it, draw the number with job.pg.query and return it with the grant; write with job.write(…) carrying the fence under its guard, and let writeDraft(job, fence, write) report whether the row took it.',
  ],
  setReasons: [
    "the whole zone goes down, the primary and the near replica beside it: the far replica Sentinel promotes never had worker-1's lock, and worker-1's stale write must change nothing",
    "no replication lag: the promoted replica has worker-1's lock and worker-2 is turned away; the fix must not get in the way of a failover that lost nothing",
    "the primary dies alone, before the far replica behind the slow link has worker-1's lock: worker-2 takes it there, and worker-1's stale write must change nothing",
  ],
};
