// token-lua with the check and the delete as two commands, GET then DEL: a stall between
// them lets the lease lapse and pass to worker-2, and the DEL then deletes worker-2's lock.
import { randomUUID } from 'node:crypto';
import { defineMutant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';
import { FAIL_INSIDE_THE_LEASE } from '../declaredSets.js';

export default defineMutant<NightlyJob>({
  id: 'token-lua-get-then-del',
  of: 'token-lua',
  mistake: 'releases with GET, compare in the application, then DEL: two commands a stall can split',
  failsAt: FAIL_INSIDE_THE_LEASE,
  title: 'Unique token, but GET then DEL',
  summary: "worker-1's fetch fails; its GET finds its own token, then its process stalls past the lease; worker-2 takes the lock, and worker-1's DEL deletes it: worker-3 gets in while worker-2 still builds.",
  source: import.meta.url,
  checkpoints: ['working', 'report-sent', 'between-get-and-del'],
  // 3 s lease, a fetch of 100 ms: worker-1 resumes about 1.5 s after its lease lapsed and
  // 1.5 s before worker-2's does, so its DEL lands on worker-2's lock.
  faults: [{ checkpoint: 'between-get-and-del', target: 'first', action: 'stall', ms: 4400 }],
  async run(job) {
    // One lock per report and night: another entity or another date never waits on this one.
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = `${job.workerId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sendReport();
    } finally {
      // The mistake: the check and the delete are two round trips, not one atomic step.
      let deleted = 0;
      if ((await job.redis.get(key)) === token) {
        await job.checkpoint('between-get-and-del');
        deleted = await job.redis.del(key);
      }
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
