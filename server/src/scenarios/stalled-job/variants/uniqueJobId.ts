import { defineVariant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../chargeQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineVariant<ChargeQueue>({
  id: 'unique-job-id',
  title: 'Idempotency key = the job id (UNIQUE)',
  correct: true,
  summary:
    'The charge carries the job id as its idempotency key, which the table takes once: the second run of the job charges nothing. bullmq still runs it twice; the side effect happens once.',
  figures: 'charges 1, job started 2 times',
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['calling', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.callProvider();
      // The key names the job, not the attempt: every run of the job has the same one.
      const inserted = await queue.pg.query(
        'insert into charges (job_id, idempotency_key, attempt, worker) values ($1, $1, $2, $3) on conflict (idempotency_key) do nothing',
        [job.id, job.attempt, queue.workerId],
      );
      reportCharge(queue, job, inserted.rowCount === 1, 'the job was already charged (its idempotency key is taken)');
    });
  },
});
