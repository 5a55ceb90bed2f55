import { randomUUID } from 'node:crypto';
import { acquireWaiting } from '../../kit/acquireWaiting.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineVariant } from '../../types.js';
import type { EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

const RETRY_EVERY_MS = 10;

export default defineVariant<EntityJob>({
  id: 'per-entity-key',
  title: 'One lock key per entity',
  correct: true,
  summary:
    "The lock key names the entity the job is about. Jobs of the same customer still wait for each other; jobs of different customers never do, so 5 run side by side.",
  figures: 'most jobs at once 5, never two of one customer, wall time 800 ms',
  source: import.meta.url,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.entity}`); // lock what the job touches, nothing more
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
