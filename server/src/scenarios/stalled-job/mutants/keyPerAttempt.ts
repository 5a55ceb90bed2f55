// unique-job-id's near-miss: the idempotency key is unique, but per attempt, not per job.
import { defineMutant } from '../../types.js';
import { pauseAtTheEdge, type ChargeQueue } from '../chargeQueue.js';
import { reportCharge } from '../reportCharge.js';

export default defineMutant<ChargeQueue>({
  id: 'key-per-attempt',
  of: 'unique-job-id',
  mistake: 'makes the idempotency key of the job id and the attempt, so each run of the job has a key of its own',
  failsAt: {},
  title: 'Idempotency key = job id + attempt (UNIQUE)',
  summary: 'The table takes each key once, but the second run of the job brings a new key: both charges land.',
  source: import.meta.url,
  refusedAt: pauseAtTheEdge,
  checkpoints: ['calling', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.callProvider();
      // The mistake: a retry is the same job, so its key must be the same too.
      const inserted = await queue.pg.query(
        'insert into charges (job_id, idempotency_key, attempt, worker) values ($1, $2, $3, $4) on conflict (idempotency_key) do nothing',
        [job.id, `${job.id}:${job.attempt}`, job.attempt, queue.workerId],
      );
      reportCharge(queue, job, inserted.rowCount === 1, 'the job was already charged (its idempotency key is taken)');
    });
  },
});
