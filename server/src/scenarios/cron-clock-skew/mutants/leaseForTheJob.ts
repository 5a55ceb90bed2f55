import { defineMutant, intParam } from '../../types.js';
import type { CronJob } from '../cronJob.js';
import { LOCK_KEY } from '../keys.js';

export default defineMutant<CronJob>({
  id: 'lease-for-the-job',
  of: 'lock-per-slot',
  mistake: "the key's lease is the job's length, not the rest of the slot",
  failsAt: {},
  title: 'Lock per slot, held for as long as the job runs',
  summary:
    'The right key, never released, but its lease is sized to the 300 ms job: it is gone long before node-2, a second late, fires for the same slot.',
  source: import.meta.url,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.slot}`); // one lock per slot, as this node's clock names it
    // The mistake: the key is the record that the slot has run, yet it lives only as long as the job.
    const leaseMs = intParam(job.params, 'jobMs');
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, job.workerId, 'PX', leaseMs, 'NX');
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: leaseMs, fromMs: sent });

    await job.runBatch();
    // No release: Redis drops the key when its lease runs out.
  },
});
