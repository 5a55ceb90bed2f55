// cron-clock-skew as an exercise: release-when-done's textbook lock is gone before a late
// clock fires; the learner keeps the slot's key until the slot ends.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'release-when-done',
  solution: 'lock-per-slot',
  hints: [
    'The lock never had two holders, yet the slot ran twice: once node-1 deleted the key, nothing said the slot had run, and node-2, its clock late, fired after that. The key must outlive the job: it is the record that this slot has run.',
    "SET the slot's key with NX and a PX that runs to the end of the slot by this node's clock (slot end minus now: a duration, so Redis and the node agree on it whatever their clocks say), and send no DEL after the batch: Redis drops the key when the slot ends.",
    'Leave holdLease and takeLease out, since their release deletes the key: compute the lease from job.slotEndMs and job.clock.now(), SET job.lockKey on job.redis with it and NX, call job.skip() when the answer is not OK, else emit lease-acquired and await job.runBatch().',
  ],
  setReasons: [
    "three nodes 200 ms apart and a 300 ms batch: node-2 fires while node-1's batch holds the lock and node-3 after it ended, and the slot must still run once",
    'a clock late by more than a whole slot (900 ms in a 600 ms slot): the late node fires after any key that ends with the slot; it shows where only a unique row in the database would do',
  ],
};
