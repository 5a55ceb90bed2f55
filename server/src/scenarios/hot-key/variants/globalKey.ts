import { randomUUID } from 'node:crypto';
import { acquireWaiting } from '../../kit/acquireWaiting.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineVariant } from '../../types.js';
import type { EntityJob } from '../entityJob.js';
import { entitiesInParallel } from '../jobPlan.js';
import { LOCK_KEY } from '../keys.js';

const RETRY_EVERY_MS = 10;

export default defineVariant<EntityJob>({
  id: 'global-key',
  title: 'One lock key for every entity',
  correct: false,
  summary:
    'Every job takes the same lock, whatever entity it is about. Safe — no two jobs ever overlap — but the 20 jobs for 5 customers run one at a time: a queue of one.',
  figures: '20 jobs, 5 customers, 200 ms each: most jobs at once 1 (should be 5), wall time 4000 ms',
  source: import.meta.url,
  // With one customer (or one job) a key per customer is one key too: nothing to serialise.
  expectedOtherwise: (params) =>
    entitiesInParallel(params) === 1
      ? 'only one customer has jobs to run: one key for all is the same queue as one key per customer'
      : null,
  async run(job) {
    const key = job.key(LOCK_KEY); // one key for all entities: customer-1 waits on customer-2's job
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
