import { randomUUID } from 'node:crypto';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineSteppedVariant } from '../../types.js';
import { lockForgetsTheJob, nobodyLeftToRetry, secondLeaseLapses } from '../expectedVerdicts.js';
import { LOCK_KEY, type LockSteps, type NightlyJob } from '../nightlyJob.js';

export default defineSteppedVariant<NightlyJob, LockSteps>({
  id: 'token-lua',
  title: 'Unique token, Lua compare-and-delete',
  correct: true,
  summary: "SET key token NX PX, losers skip, and the release deletes the key only while it still holds this worker's token.",
  figures: 'e-mails 1, max concurrent holders 1',
  source: import.meta.url,
  expectedOtherwise: (params) => lockForgetsTheJob(params) ?? nobodyLeftToRetry(params) ?? secondLeaseLapses(params),
  checkpoints: ['working', 'report-sent'],
  steps: {
    token: (job) => `${job.workerId}:${randomUUID()}`,
    take: (job, key, token) => job.redis.set(key, token, 'PX', job.leaseMs, 'NX'),
    // The check and the delete are one atomic step inside Redis: no stall can come between them.
    release: (job, key, token) => releaseIfMine(job.redis, key, token),
  },
  async run(job, { token: tokenOf, take, release }) {
    // One lock per report and night: another entity or another date never waits on this one.
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = tokenOf(job);
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    if ((await take(job, key, token)) !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sendReport();
    } finally {
      job.emit({ type: 'lease-released', key, deleted: await release(job, key, token) }); // 0 when the lease had passed to another
    }
  },
});
