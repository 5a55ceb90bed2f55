import { defineVariant } from '../../types.js';
import { AFTER_BATCH_ROW, type CronJob } from '../cronJob.js';
import { slotShorterThanSkew } from '../expected.js';
import { LOCK_KEY } from '../keys.js';

export default defineVariant<CronJob>({
  id: 'lock-per-slot',
  title: 'Lock per slot, held until the slot ends',
  correct: true,
  summary:
    'The same lock on the slot, never released: it expires when the slot ends. node-2 fires a second late, finds the slot taken and skips. A late clock only has to be less late than a slot.',
  figures: 'runs of the slot 1: the slot\'s key lives to the slot\'s end',
  source: import.meta.url,
  checkpoints: [AFTER_BATCH_ROW],
  expectedOtherwise: slotShorterThanSkew,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.slot}`); // one lock per slot, as this node's clock names it
    // Held until the slot ends by this node's clock: a duration, so it means the same to Redis.
    const untilSlotEndMs = job.slotEndMs - job.clock.now();
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, job.workerId, 'PX', untilSlotEndMs, 'NX');
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: untilSlotEndMs, fromMs: sent });

    await job.runBatch();
    // No release: the key is the record that this slot has run. Redis drops it when the slot ends.
  },
});
