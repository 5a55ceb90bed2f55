// token-lua, released with a plain DEL instead of the compare-and-delete: when worker-1's
// work outlasts its lease, its release deletes worker-2's lock and worker-3 gets in.
import { randomUUID } from 'node:crypto';
import { defineMutant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';
import { OVERRUN_THEN_FAIL } from '../declaredSets.js';

export default defineMutant<NightlyJob>({
  id: 'token-lua-plain-del',
  of: 'token-lua',
  mistake: 'releases with a plain DEL, not compare-and-delete: it deletes the lock whoever holds it now',
  failsAt: OVERRUN_THEN_FAIL,
  title: 'Unique token, but a plain DEL release',
  summary: "worker-1's fetch outlasts its lease and fails; worker-2 has the lock by then, and worker-1's DEL removes it: worker-3 gets in while worker-2 still builds.",
  source: import.meta.url,
  checkpoints: ['working', 'report-sent'],
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
      const deleted = await job.redis.del(key); // the mistake: the token is never compared
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});
