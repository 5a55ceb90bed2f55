// expired-job as an exercise: plain-insert charges the card on every run of the job, and pg-boss
// runs an expired job again; the learner makes the charge idempotent per job.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'plain-insert',
  solution: 'unique-job-id',
  hints: [
    "A pg-boss job runs at least once, not once: worker-1 was stopped past the job's expiry, pg-boss put the job back for retry, worker-2 ran it, and both charged. Make the second run of the same job change nothing.",
    'Give each charge an idempotency key that the table takes once (charges.idempotency_key is UNIQUE; a NULL key is never refused), and insert with ON CONFLICT (idempotency_key) DO NOTHING: the key must be the same on every run of the job.',
    'Keep job.prepare() and job.complete(); insert into charges (job_id, idempotency_key, attempt, worker) values ($1, $1, $2, $3) on conflict (idempotency_key) do nothing, with job.id as the key (not job.attempt), and report the rows it inserted with reportCharge(queue, job, inserted.rowCount === 1, …).',
  ],
  setReasons: [
    'worker-1 is stopped 6 s on a job that expires after 2 s: worker-2 runs the job again, and the card must still be charged once',
    'worker-1 is stopped 500 ms, inside the 2 s expiry: nobody else runs the job, and its one charge must land',
    "worker-1 is killed after its charge, before it completes the job: pg-boss retries the job once it expires, and the retry's charge must not land too",
  ],
};
