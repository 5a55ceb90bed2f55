// watchdog-fenced, with the fence compared in application code: the worker reads the row's
// fence and compares it in JavaScript before its work, then writes without the guard. The
// block falls between the check and the write, and the newer fence arrives in that gap.
import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { renewIfMine } from '../../kit/renewIfMine.js';
import { defineMutant } from '../../types.js';
import type { StatementJob } from '../statementJob.js';

export default defineMutant<StatementJob>({
  id: 'fence-compared-in-app',
  of: 'watchdog-fenced',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: 'Watchdog and a fence compared in the application',
  summary: "worker-1 checks the row's fence (0 < 1: fine), blocks its loop, and writes without the guard after worker-2 wrote fence 2.",
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
      // The mistake: the check is a read, and the write that follows does not repeat it.
      const { rows } = await job.pg.query<{ fence: number }>('select fence from statements where id = 1');
      if (rows[0]!.fence >= fence) return;
      job.blockEventLoop(); // worker-1: a long synchronous task — no timer fires, the watchdog's included
      await job.work();
      const content = `statement by ${job.workerId}`;
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
