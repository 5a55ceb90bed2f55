import { defineVariant } from '../../types.js';
import { nobodyForTheDelToLetIn, noneComesLater, onlyOneContainer } from '../expectedVerdicts.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';

export default defineVariant<NightlyJob>({
  id: 'blind-del',
  title: 'SET NX PX, release with DEL',
  correct: false,
  summary:
    "The lease expires while the first holder still works; a second container takes it; the first one finishes and its DEL removes the second one's lock, so a third gets in.",
  figures: 'lease 1 s, work 1.5 s: max concurrent holders 2, e-mails 3',
  source: import.meta.url,
  expectedOtherwise: (params) => onlyOneContainer(params) ?? noneComesLater(params) ?? nobodyForTheDelToLetIn(params),
  // Half a second between worker-1's DEL and the end of worker-2's lease: a busy machine
  // still deletes worker-2's lock, never a lock already expired.
  defaults: { arrival: 'late', leaseMs: 1000, workMs: 1500 },
  checkpoints: ['working', 'report-sent'],
  async run(job) {
    const key = job.key(LOCK_KEY);
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, 'locked', 'PX', job.leaseMs, 'NX'); // every holder writes the same value
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent });

    try {
      await job.sendReport();
    } finally {
      const deleted = await job.redis.del(key); // deletes the key whoever holds it now
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
