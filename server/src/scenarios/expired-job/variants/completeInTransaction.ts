import { defineVariant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../jobQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineVariant<ChargeQueue>({
  id: 'complete-in-transaction',
  title: 'Charge and complete the job in one transaction',
  correct: true,
  summary:
    "The charge and pg-boss's completion of the job share one transaction on the handler's connection; pg-boss completes only an active job, and the handler commits only if it did. worker-1's late charge is rolled back with its refused completion.",
  figures: 'charges 1, job started 2 times',
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['working', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.prepare();
      await queue.pg.query('begin');
      await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      // The completion's UPDATE runs in the same transaction: the charge commits only with it.
      const completed = await job.complete(queue.pg);
      await queue.pg.query(completed ? 'commit' : 'rollback');
      reportCharge(queue, job, completed, 'pg-boss refused the completion (the job was no longer active): the charge rolled back');
    });
  },
});
