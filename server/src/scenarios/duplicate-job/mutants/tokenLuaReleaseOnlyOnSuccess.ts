// token-lua with its release after the job instead of in `finally`: a job that throws
// keeps the lock, and every container that comes before the lease lapses skips.
import { defineMutant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';
import { FAIL_INSIDE_THE_LEASE } from '../declaredSets.js';
import tokenLua from '../variants/tokenLua.js';

export default defineMutant<NightlyJob>({
  id: 'token-lua-release-only-on-success',
  of: 'token-lua',
  mistake: 'releases after the job, not in finally: a job that throws keeps the lock until its lease lapses',
  failsAt: FAIL_INSIDE_THE_LEASE,
  title: 'Unique token, compare-and-delete, but no finally',
  summary:
    "worker-1's fetch fails and the job throws past the release: its lock stays, worker-2 and worker-3 find it taken and skip, and no report is sent.",
  source: import.meta.url,
  checkpoints: ['working', 'report-sent'],
  async run(job) {
    const { token: tokenOf, take, release } = tokenLua.steps;
    const key = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const token = tokenOf(job);
    job.emit({ type: 'lease-requested', key });
    const sent = job.now();
    if ((await take(job, key, token)) !== 'OK') return job.skip(key);
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });
    await job.sendReport(); // the mistake: no try/finally, so a throw skips the release below
    job.emit({ type: 'lease-released', key, deleted: await release(job, key, token) });
  },
});
