import { defineVariant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';

export default defineVariant<NightlyJob>({
  id: 'setnx-no-expiry',
  title: 'SETNX without expiry',
  correct: false,
  summary: 'The lock never expires. The holder dies before it sends the report; its key stays forever and every later run skips.',
  figures: 'holder killed (SIGKILL) before sending: e-mails 0, lock TTL -1 (never expires)',
  source: import.meta.url,
  checkpoints: ['holding-lock', 'working', 'report-sent'],
  faults: [{ checkpoint: 'holding-lock', target: 'first', action: 'kill' }],
  async run(job) {
    const key = job.key(LOCK_KEY);
    job.emit({ type: 'lease-requested', key });
    const won = await job.redis.setnx(key, job.workerId); // no expiry: only DEL removes it
    if (won === 0) return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: null });

    await job.checkpoint('holding-lock'); // the demonstration kills the holder here
    try {
      await job.sendReport();
    } finally {
      job.emit({ type: 'lease-released', key, deleted: await job.redis.del(key) });
    }
  },
});
