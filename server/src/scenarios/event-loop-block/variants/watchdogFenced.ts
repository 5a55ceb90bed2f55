import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { renewIfMine } from '../../kit/renewIfMine.js';
import { defineVariant } from '../../types.js';
import type { StatementJob } from '../statementJob.js';

export default defineVariant<StatementJob>({
  id: 'watchdog-fenced',
  title: 'Watchdog, and a fencing token checked by the database',
  correct: true,
  summary:
    "The same watchdog, and the same expiry while worker-1's loop is blocked: two workers believe they hold the lease. But every grant carries a higher fence number and the row takes only a higher one, so worker-1's stale write is rejected.",
  figures: '2 holders, stale writes accepted 0 (rejected 1)',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
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
      // The database is the judge: a write from an older grant than the last one it took updates nothing.
      const updated = await job.write(
        'update statements set content = $1, fence = $2, writer = $3 where id = 1 and fence < $2',
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
