import { defineMutant } from '../../types.js';
import type { CronJob } from '../cronJob.js';
import { LOCK_KEY } from '../keys.js';

export default defineMutant<CronJob>({
  id: 'deleted-when-done',
  of: 'lock-per-slot',
  mistake: 'deletes the slot key in finally once the batch is done, out of habit',
  failsAt: {},
  title: 'Lock per slot, deleted when the job is done',
  summary:
    'The key would last until the slot ends, but a tidy finally deletes it after the 300 ms batch: node-2, a second late, finds no key and bills the slot again.',
  source: import.meta.url,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.slot}`); // one lock per slot, as this node's clock names it
    // Held until the slot ends by this node's clock: a duration, so it means the same to Redis.
    const untilSlotEndMs = job.slotEndMs - job.clock.now();
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, job.workerId, 'PX', untilSlotEndMs, 'NX');
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: untilSlotEndMs, fromMs: sent });

    try {
      await job.runBatch();
    } finally {
      // The mistake: the key was the record that this slot has run, and now it is gone.
      const deleted = await job.redis.del(key);
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
