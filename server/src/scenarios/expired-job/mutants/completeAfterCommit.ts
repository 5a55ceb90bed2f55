// complete-in-transaction's near-miss: the charge commits on its own, and the job is completed after it.
import { defineMutant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../jobQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineMutant<ChargeQueue>({
  id: 'complete-after-commit',
  of: 'complete-in-transaction',
  mistake: "commits the charge in its own transaction and completes the job through pg-boss's connection after it",
  failsAt: {},
  title: 'Commit the charge, then complete the job',
  summary: "worker-1's charge has committed by the time pg-boss refuses its completion: nothing takes it back.",
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['working', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.prepare();
      await queue.pg.query('begin');
      await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      await queue.pg.query('commit');
      reportCharge(queue, job, true, '');
      // The mistake: the completion is a second transaction, on another connection, after the charge's.
      await job.complete();
    });
  },
});
