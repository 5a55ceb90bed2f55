import { defineVariant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../chargeQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineVariant<ChargeQueue>({
  id: 'fenced-attempt',
  title: "Fenced by bullmq's attempt number",
  correct: true,
  summary:
    "Each run of the job raises the job's fence to its attempt number (bullmq's attemptsStarted) before its call; the charge is written under the fence row's lock, only by the latest attempt and only once. worker-1's late charge is refused.",
  figures: 'charges 1, job started 2 times',
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['calling', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await queue.pg.query(
        'insert into job_fences (job_id, attempt) values ($1, $2) on conflict (job_id) do update set attempt = greatest(job_fences.attempt, excluded.attempt)',
        [job.id, job.attempt],
      );
      await job.callProvider();
      await queue.pg.query('begin');
      // The fence row's lock makes the check and the insert one step: no other attempt writes in between.
      const fence = await queue.pg.query<{ attempt: number }>('select attempt from job_fences where job_id = $1 for update', [job.id]);
      const charged = await queue.pg.query('select 1 from charges where job_id = $1', [job.id]);
      const current = fence.rows[0]?.attempt === job.attempt;
      if (current && charged.rowCount === 0) {
        await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      }
      await queue.pg.query('commit');
      reportCharge(
        queue,
        job,
        current && charged.rowCount === 0,
        current ? 'the job was already charged' : `a later attempt (${fence.rows[0]?.attempt}) holds the fence`,
      );
    });
  },
});
