import { randomUUID } from 'node:crypto';
import { acquireWaiting } from '../../kit/acquireWaiting.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineMutant } from '../../types.js';
import type { EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

const RETRY_EVERY_MS = 10;

export default defineMutant<EntityJob>({
  id: 'entity-truncated',
  of: 'per-entity-key',
  mistake: 'keeps only the first 10 characters of the entity: customer-1 and customer-10 share a key',
  failsAt: { jobs: 10, entities: 10, workers: 2, jobMs: 100 },
  title: 'One lock key per entity, the name cut short',
  summary: 'The key names the entity, cut to 10 characters to keep keys short. Up to nine customers it is right; at ten, customer-10 waits for customer-1.',
  source: import.meta.url,
  async run(job) {
    // The mistake: a name cut short is no longer unique; two customers queue on one key.
    const key = job.key(`${LOCK_KEY}:${job.entity.slice(0, 10)}`);
    const token = `${job.jobId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    // Every job must run, so a loser waits and tries again; it does not skip. `sent`: when
    // the SET that won was sent, where the lease starts (not its reply).
    const sent = await acquireWaiting(job, key, token, job.leaseMs, {
      retryMs: RETRY_EVERY_MS,
      onWait: () => job.queue(key),
    });
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sync(key);
    } finally {
      const deleted = await releaseIfMine(job.redis, key, token);
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
