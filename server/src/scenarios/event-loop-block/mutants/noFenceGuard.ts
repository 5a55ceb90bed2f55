// watchdog-fenced, with the fence carried into the row but never compared: the UPDATE
// has no `and fence < $2`, so the stale write lands with its old number.
import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { renewIfMine } from '../../kit/renewIfMine.js';
import { defineMutant } from '../../types.js';
import type { StatementJob } from '../statementJob.js';

export default defineMutant<StatementJob>({
  id: 'no-fence-guard',
  of: 'watchdog-fenced',
  mistake: 'writes the fence into the row without `where fence < $new`: nothing compares it',
  failsAt: {},
  title: 'Watchdog and a fence that nothing compares',
  summary: "The fence numbers are right and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now(); // the lease counts from the request, not from its reply
    // The lease and its fence number in one atomic step: later grants get higher numbers.
    const fence = await acquireWithFence(job.redis, job.lockKey, job.fenceKey, job.token, job.leaseMs);
    if (fence === null) return job.skip();
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token, fence });
    // The watchdog keeps long work covered; it cannot cover a blocked loop, so the fence has to.
    const watchdog = setInterval(() => {
      const renewSent = job.now();
      void renewIfMine(job.redis, job.lockKey, job.token, job.leaseMs).then((renewed) => {
        if (renewed) {
          job.emit({ type: 'lease-expiry-set', key: job.lockKey, ttlMs: job.leaseMs, fromMs: renewSent }); // renewed
          return;
        }
        clearInterval(watchdog);
        job.emit({ type: 'note', text: 'watchdog: the lease was gone when it could renew it' });
      });
    }, job.renewEveryMs);
    await job.enter();

    try {
      job.blockEventLoop(); // worker-1: a long synchronous task — no timer fires, the watchdog's included
      await job.work();
      const content = `statement by ${job.workerId}`;
      // The mistake: the guard `and fence < $2` is missing.
      const updated = await job.write(
        'update statements set content = $1, fence = $2, writer = $3 where id = 1',
        [content, fence, job.workerId],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'statement', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'statement', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      clearInterval(watchdog);
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
