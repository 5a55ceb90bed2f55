import { randomUUID } from 'node:crypto';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineVariant } from '../../types.js';
import { AFTER_BATCH_ROW, type CronJob } from '../cronJob.js';
import { everyNodeFiresDuringTheJob } from '../expected.js';
import { LOCK_KEY } from '../keys.js';

export default defineVariant<CronJob>({
  id: 'release-when-done',
  title: 'Correct lock, released when the job is done',
  correct: false,
  summary:
    "A textbook lock on the slot: token, lease, compare-and-delete. But the job takes 300 ms and node-2's clock is 1 s late: node-2 fires after node-1 released the lock, takes it, and bills the same slot again.",
  figures: 'node-2\'s clock 1 s late, job 300 ms: runs of the slot 2 (should be 1)',
  source: import.meta.url,
  checkpoints: [AFTER_BATCH_ROW],
  expectedOtherwise: everyNodeFiresDuringTheJob,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.slot}`); // one lock per slot, as this node's clock names it
    const token = `${job.workerId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.runBatch();
    } finally {
      // Tidy, and wrong: once the key is gone, nothing says this slot has run.
      const deleted = await releaseIfMine(job.redis, key, token);
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
