// hot-key as an exercise: global-key is safe but queues every customer behind one key; the
// learner locks what the job touches and nothing more.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'global-key',
  solution: 'per-entity-key',
  hints: [
    'The lock is safe but covers more than the job touches: a job for customer-1 waits behind one for customer-2 that it could never harm. Lock what the job touches, and nothing more; jobs of the same customer must still take turns.',
    'The lock itself stays SET key token NX PX with a compare-and-delete release; only its key changes, to one per customer, named in full: lock:sync:customer-3.',
    "Build the lease with job.lease(…) from a name made of LOCK_KEY and the whole of job.entity; keep waitTurn(job, lease), so that a job finding its customer's key taken waits its turn instead of skipping, and keep job.sync(lease.lockKey) as the work.",
  ],
  setReasons: [
    'seven jobs for three customers on two workers: an uneven spread, where three jobs must run side by side and never two of one customer',
    "every customer's jobs in one worker process: four must run side by side within it, so the key names the customer, not the process",
    'ten customers, where customer-1 and customer-10 differ only past their tenth character: a key cut short makes them queue on each other',
  ],
};
