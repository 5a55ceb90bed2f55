import { defineSteppedVariant } from '../../types.js';
import { AFTER_BATCH_ROW, type CronJob, type SlotLockSteps } from '../cronJob.js';
import { slotShorterThanSkew } from '../expected.js';

export default defineSteppedVariant<CronJob, SlotLockSteps>({
  id: 'lock-per-slot',
  title: 'Lock per slot, held until the slot ends',
  correct: true,
  summary:
    'The same lock on the slot, never released: it expires when the slot ends. node-2 fires a second late, finds the slot taken and skips. A late clock only has to be less late than a slot.',
  figures: "runs of the slot 1: the slot's key lives to the slot's end",
  source: import.meta.url,
  checkpoints: [AFTER_BATCH_ROW],
  expectedOtherwise: slotShorterThanSkew,
  steps: {
    // Held until the slot ends by this node's clock: a duration, so it means the same to Redis.
    ttlMs: (job) => job.slotEndMs - job.clock.now(),
    set: (job, ttlMs) => job.redis.set(job.lockKey, job.workerId, 'PX', ttlMs, 'NX'),
    // No release: the key is the record that this slot has run. Redis drops it when the slot ends.
    done: async () => undefined,
  },
  async run(job, { ttlMs: lifeOf, set, done }) {
    const ttlMs = lifeOf(job);
    job.emit({ type: 'lease-requested', key: job.lockKey }); // one lock per slot, as this node's clock names it
    const sent = job.now(); // the lease counts from the SET, not from its reply
    if ((await set(job, ttlMs)) !== 'OK') {
      await job.skip();
      return;
    }
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs, fromMs: sent });
    try {
      await job.runBatch();
    } finally {
      await done(job);
    }
  },
});
