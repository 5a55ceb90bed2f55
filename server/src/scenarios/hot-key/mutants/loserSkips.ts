import { randomUUID } from 'node:crypto';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineMutant } from '../../types.js';
import type { EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

export default defineMutant<EntityJob>({
  id: 'loser-skips',
  of: 'per-entity-key',
  mistake: 'a job that finds its lock taken skips, as a once-a-day job would, instead of waiting its turn',
  failsAt: {},
  title: 'One lock key per entity, losers skip',
  summary: 'The right key, but the lock is used as if only one job had to run: a job of a busy customer gives up, and its work is never done.',
  source: import.meta.url,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.entity}`); // lock what the job touches, nothing more
    const token = `${job.jobId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    // The mistake: every job must run, but this one gives up when another holds the key.
    if (ok !== 'OK') return job.emit({ type: 'job-skipped', reason: `${job.jobId}: ${job.entity} is locked` });
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sync(key);
    } finally {
      const deleted = await releaseIfMine(job.redis, key, token);
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
