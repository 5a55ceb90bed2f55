import { randomUUID } from 'node:crypto';
import { defineVariant } from '../../types.js';
import { onlyOneContainer, oneLeftToSend } from '../expectedVerdicts.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';
import { COMPARE_AND_DELETE } from './tokenLua.js';
const RETRY_EVERY_MS = 20;

export default defineVariant<NightlyJob>({
  id: 'wait-for-lock',
  title: 'Wait for the lock instead of skipping',
  correct: false,
  summary:
    'A correct lock, used for the wrong purpose: the losers queue up behind the holder and each runs the job when its turn comes. Every container still sends the report, one after another.',
  source: import.meta.url,
  expectedOtherwise: (params) => onlyOneContainer(params) ?? oneLeftToSend(params),
  checkpoints: ['working', 'report-sent'],
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = `${job.workerId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    let sent = job.now(); // the lease counts from the SET, not from its reply
    let ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') {
      await job.queue(key);
      // Mutual exclusion, not deduplication: waiting only delays the duplicate.
      while (ok !== 'OK') {
        await job.sleep(RETRY_EVERY_MS);
        sent = job.now();
        ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
      }
    }
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sendReport();
    } finally {
      const deleted = Number(await job.redis.eval(COMPARE_AND_DELETE, 1, key, token));
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
