// redlock as an exercise: a majority of five nodes still grants the lock twice; the learner
// fences the write with a number from the database that checks it.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'redlock',
  solution: 'redlock-fenced',
  hints: [
    'A majority of nodes said yes, but worker-1 was stopped past every key (or one node dropped its key early), so worker-2 took a majority of its own: two holders, and nothing in the write can tell. Five independent nodes share no counter: take the order of grants from the database that checks the write.',
    "A PostgreSQL sequence gives every grant a higher number: SELECT nextval('fences'); the write takes it only when it is newer than the row's: UPDATE documents SET …, fence = $n WHERE id = 1 AND fence < $n.",
    "Keep takeMajority(job) and heldOnTheNodes(job); right after the majority is taken, before job.pause(), draw the number with job.pg.query and carry it in holdLease's grant; write with job.write(…) under the guard, and let writeDraft(job, fence, write) report whether the row took it.",
  ],
  setReasons: [
    "no stop at all: in a split network node-3's clock jumps 1 s and drops worker-1's key early, so worker-2 gets a majority of its own while worker-1 still works, and worker-1's write must change nothing",
    "in a split network worker-1 is stopped 3 s in a 2 s lease: worker-2 takes nodes 3–5 and writes, and worker-1's stale write must change nothing",
  ],
};
