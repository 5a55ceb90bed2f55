// token-lua with the same value in every container: the compare-and-delete compares, but
// another holder's lock holds the same value, so it matches and is deleted.
import { defineMutant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';
import { COMPARE_AND_DELETE } from '../variants/tokenLua.js';
import { OVERRUN_THEN_FAIL } from '../declaredSets.js';

export default defineMutant<NightlyJob>({
  id: 'token-lua-constant-token',
  of: 'token-lua',
  mistake: 'the token is a constant, the same in every container: compare-and-delete matches another holder\'s lock',
  failsAt: OVERRUN_THEN_FAIL,
  title: 'Compare-and-delete, but a constant token',
  summary: "worker-1's fetch outlasts its lease and fails; worker-2 holds the lock with the same value, so worker-1's compare-and-delete deletes it and worker-3 gets in.",
  source: import.meta.url,
  checkpoints: ['working', 'report-sent'],
  async run(job) {
    // One lock per report and night: another entity or another date never waits on this one.
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = 'nightly-report'; // the mistake: not unique to this holder
    job.emit({ type: 'lease-requested', key });
    const sent = job.now(); // the lease counts from the SET, not from its reply
    const ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sendReport();
    } finally {
      const deleted = Number(await job.redis.eval(COMPARE_AND_DELETE, 1, key, token));
      job.emit({ type: 'lease-released', key, deleted }); // 0 when the lease had passed to another
    }
  },
});
