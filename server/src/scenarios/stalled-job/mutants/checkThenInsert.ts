// fenced-attempt's near-miss: the fence and the earlier charge are checked before the call,
// with no lock and no constraint, and the charge is inserted after it.
import { defineMutant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../chargeQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineMutant<ChargeQueue>({
  id: 'check-then-insert',
  of: 'fenced-attempt',
  mistake: 'checks the fence and for an earlier charge before the provider call, then inserts after it, with no lock and no constraint',
  failsAt: {},
  title: 'Check for a charge, call, then insert',
  summary: 'worker-1 checked before it was stopped, when nothing was charged yet; it inserts on what it saw then, after worker-2 charged.',
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['calling', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await queue.pg.query(
        'insert into job_fences (job_id, attempt) values ($1, $2) on conflict (job_id) do update set attempt = greatest(job_fences.attempt, excluded.attempt)',
        [job.id, job.attempt],
      );
      // The mistake: what was true before the call is not true after it.
      const fence = await queue.pg.query<{ attempt: number }>('select attempt from job_fences where job_id = $1', [job.id]);
      const charged = await queue.pg.query('select 1 from charges where job_id = $1', [job.id]);
      const mayCharge = fence.rows[0]?.attempt === job.attempt && charged.rowCount === 0;
      await job.callProvider();
      if (mayCharge) {
        await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      }
      reportCharge(queue, job, mayCharge, 'the job was already charged, or a later attempt holds the fence');
    });
  },
});
