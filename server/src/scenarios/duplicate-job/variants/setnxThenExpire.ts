import { defineVariant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';

export default defineVariant<NightlyJob>({
  id: 'setnx-then-expire',
  title: 'SETNX, then EXPIRE',
  correct: false,
  summary: 'Two commands where one is needed. The holder dies between SETNX and EXPIRE, so the key never gets its expiry.',
  figures: 'holder killed between SETNX and EXPIRE: e-mails 0, lock TTL -1',
  source: import.meta.url,
  checkpoints: ['between-setnx-and-expire', 'working', 'report-sent'],
  faults: [{ checkpoint: 'between-setnx-and-expire', target: 'first', action: 'kill' }],
  async run(job) {
    const key = job.key(LOCK_KEY);
    job.emit({ type: 'lease-requested', key });
    const won = await job.redis.setnx(key, job.workerId);
    if (won === 0) return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: null });

    await job.checkpoint('between-setnx-and-expire'); // the demonstration kills the holder here
    const sent = job.now();
    await job.redis.pexpire(key, job.leaseMs);
    job.emit({ type: 'lease-expiry-set', key, ttlMs: job.leaseMs, fromMs: sent });
    try {
      await job.sendReport();
    } finally {
      job.emit({ type: 'lease-released', key, deleted: await job.redis.del(key) });
    }
  },
});
