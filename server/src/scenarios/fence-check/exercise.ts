// fence-check as an exercise: greater-than-in-app checks the fence, then writes: a newer
// write lands between the two; the learner moves the comparison into the UPDATE.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'greater-than-in-app',
  solution: 'database-guard',
  hints: [
    'The rule is right (write only with a higher fence), but the check and the write are two steps: a newer holder can write between them, and the write that follows trusts a check that is no longer true. Make the comparison part of the write itself.',
    "Put the comparison in the UPDATE's WHERE, which PostgreSQL checks under the row's lock in the same statement: the UPDATE you already have, with AND fence < $3 ($3 the lease's fence) after WHERE id = $4.",
    "Drop the SELECT and the comparison in JavaScript; keep job.holding(…) and both checkpoints, now one after the other just before the write (with the check inside the UPDATE, 'between' is simply before it), and call job.write(…) with the guarded UPDATE and the lease: a write it turns down updates no row.",
  ],
  setReasons: [
    "worker-1 is stopped 400 ms in a 150 ms lease, at each ordering's step: worker-2 takes every lease with fence 2, and no ordering may let worker-1's stale write replace a newer one",
    "worker-1 wakes well inside its 5 s lease: no write is stale, so the fix must still let every holder's own write through",
  ],
};
