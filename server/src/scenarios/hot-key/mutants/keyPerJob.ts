import { randomUUID } from 'node:crypto';
import { acquireWaiting } from '../../kit/acquireWaiting.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineMutant } from '../../types.js';
import { AFTER_JOB_ROW, type EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

const RETRY_EVERY_MS = 10;

export default defineMutant<EntityJob>({
  id: 'key-per-job',
  of: 'per-entity-key',
  mistake: 'names the lock after the job, not after the entity the job touches',
  failsAt: {},
  title: 'One lock key per job',
  summary: 'Every job gets a key of its own, so no job ever waits: two jobs of the same customer run at once.',
  source: import.meta.url,
  checkpoints: [AFTER_JOB_ROW],
  async run(job) {
    // The mistake: a key per job is never contended, so it excludes nothing.
    const key = job.key(`${LOCK_KEY}:${job.jobId}`);
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
