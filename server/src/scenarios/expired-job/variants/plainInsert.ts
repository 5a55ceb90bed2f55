import { defineVariant } from '../../types.js';
import { pauseAtTheEdge, queueTimings, type ChargeQueue } from '../jobQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineVariant<ChargeQueue>({
  id: 'plain-insert',
  title: 'Insert the charge, then complete the job',
  correct: false,
  summary:
    "The handler records the charge and completes the job. worker-1 is stopped past the job's expiry; pg-boss's maintenance fails the job for retry, worker-2 fetches it, and both charge the card.",
  figures: 'charges 2 (should be 1), job started 2 times',
  source: import.meta.url,
  expectedOtherwise: (params) => {
    const { expireMs, pauseMs, fault } = queueTimings(params);
    return fault === 'stall' && pauseMs < expireMs ? 'the pause ends before the job expires: no one else runs the job' : null;
  },
  refusedAt: pauseAtTheEdge,
  checkpoints: ['working', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.prepare();
      await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      reportCharge(queue, job, true, '');
      await job.complete();
    });
  },
});
