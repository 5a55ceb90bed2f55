import { defineVariant } from '../../types.js';
import { pauseAtTheEdge, queueTimings, type ChargeQueue } from '../chargeQueue.js';

export default defineVariant<ChargeQueue>({
  id: 'plain-insert',
  title: 'Charge, then insert the charge',
  correct: false,
  summary:
    "The handler calls the provider and records the charge. worker-1 is stopped past the job's lock; bullmq's stalled-job check hands the job to worker-2, and both charge the card.",
  figures: 'charges 2 (should be 1), job started 2 times',
  source: import.meta.url,
  expectedOtherwise: (params) => {
    const { lockDurationMs, pauseMs, fault } = queueTimings(params);
    return fault !== 'kill' && pauseMs < lockDurationMs ? "the pause ends inside the job's lock: no one else runs the job" : null;
  },
  refusedAt: pauseAtTheEdge,
  checkpoints: ['calling', 'completing'],
  async run(queue) {
    await queue.process(async (job) => {
      await job.callProvider();
      await queue.pg.query('insert into charges (job_id, attempt, worker) values ($1, $2, $3)', [job.id, job.attempt, queue.workerId]);
      queue.emit({ type: 'write-accepted', target: 'charges', value: `charge ${job.id}`, fence: job.attempt });
    });
  },
});
