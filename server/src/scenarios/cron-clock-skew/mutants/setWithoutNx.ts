import { defineMutant } from '../../types.js';
import type { CronJob } from '../cronJob.js';
import { LOCK_KEY } from '../keys.js';

export default defineMutant<CronJob>({
  id: 'set-without-nx',
  of: 'lock-per-slot',
  mistake: 'takes the slot key with SET … PX and no NX, so a taken key is overwritten, not refused',
  failsAt: {},
  title: 'Lock per slot, set without NX',
  summary:
    'The right key and the right lease, but SET without NX always answers OK: node-2 overwrites node-1\'s key and bills the slot again.',
  source: import.meta.url,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.slot}`); // one lock per slot, as this node's clock names it
    // Held until the slot ends by this node's clock: a duration, so it means the same to Redis.
    const untilSlotEndMs = job.slotEndMs - job.clock.now();
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    // The mistake: without NX this SET never fails, whoever holds the key.
    const ok = await job.redis.set(key, job.workerId, 'PX', untilSlotEndMs);
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: untilSlotEndMs, fromMs: sent });

    await job.runBatch();
    // No release: the key is the record that this slot has run. Redis drops it when the slot ends.
  },
});
