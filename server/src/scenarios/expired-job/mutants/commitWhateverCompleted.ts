// complete-in-transaction's near-miss: one transaction, but it commits whatever pg-boss answered.
import { defineMutant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../jobQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineMutant<ChargeQueue>({
  id: 'commit-whatever-completed',
  of: 'complete-in-transaction',
  mistake: "completes the job in the charge's transaction but commits even when pg-boss completed nothing",
  failsAt: {},
  title: 'Charge and complete in one transaction, commit regardless',
  summary: "worker-1's completion finds the job already completed and changes nothing; the transaction commits its charge anyway.",
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['working', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.prepare();
      await queue.pg.query('begin');
      await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      await job.complete(queue.pg);
      // The mistake: the transaction is only as good as the answer it waits for.
      await queue.pg.query('commit');
      reportCharge(queue, job, true, '');
    });
  },
});
