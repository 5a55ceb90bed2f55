import { randomUUID } from 'node:crypto';
import { acquireWaiting } from '../../kit/acquireWaiting.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineVariant } from '../../types.js';
import { onlyOneContainer, oneLeftToSend } from '../expectedVerdicts.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';
const RETRY_EVERY_MS = 20;

export default defineVariant<NightlyJob>({
  id: 'wait-for-lock',
  title: 'Wait for the lock instead of skipping',
  correct: false,
  summary:
    'A correct lock, used for the wrong purpose: the losers queue up behind the holder and each runs the job when its turn comes. Every container still sends the report, one after another.',
  figures: 'e-mails 3, one after another',
  source: import.meta.url,
  expectedOtherwise: (params) => onlyOneContainer(params) ?? oneLeftToSend(params),
  checkpoints: ['working', 'report-sent'],
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = `${job.workerId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    // Mutual exclusion, not deduplication: waiting only delays the duplicate.
    const sent = await acquireWaiting(job, key, token, job.leaseMs, { retryMs: RETRY_EVERY_MS, onWait: () => job.queue(key) });
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sendReport();
    } finally {
      const deleted = await releaseIfMine(job.redis, key, token);
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
