import { randomUUID } from 'node:crypto';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineMutant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';

export default defineMutant<NightlyJob>({
  id: 'token-lua-without-nx',
  of: 'token-lua',
  mistake: 'the SET that takes the lock has no NX: it overwrites the holder\'s token instead of failing',
  failsAt: {},
  title: 'Unique token, compare-and-delete, but SET without NX',
  summary: 'Every container\'s SET succeeds, each over the one before: every container thinks it holds the lock and sends the report.',
  source: import.meta.url,
  checkpoints: ['working'],
  async run(job) {
    // One lock per report and night: another entity or another date never waits on this one.
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = `${job.workerId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, token, 'PX', job.leaseMs); // the mistake: no NX, so it always succeeds
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sendReport();
    } finally {
      const deleted = await releaseIfMine(job.redis, key, token);
      job.emit({ type: 'lease-released', key, deleted }); // 0 when the lease had passed to another
    }
  },
});
