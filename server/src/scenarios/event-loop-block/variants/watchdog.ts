import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { endsInsideLease, stallOf } from '../../kit/leaseEdge.js';
import { takeLease } from '../../kit/takeLease.js';
import { startWatchdog } from '../../kit/watchdog.js';
import { defineVariant } from '../../types.js';
import type { StatementJob } from '../statementJob.js';

export default defineVariant<StatementJob>({
  id: 'watchdog',
  title: 'Lease with a watchdog',
  correct: false,
  summary:
    'A timer renews the lease every third of it, so long work keeps it. But the watchdog is a timer in the same event loop: while worker-1 blocks it for 1.5 s, it cannot fire, the 1 s lease expires, and the stale write lands anyway.',
  figures: 'the same: its timer cannot fire in a blocked loop',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  renewsLease: true,
  // The block starts right after the lease is taken; if it ends inside the lease (by its
  // edge), the watchdog's overdue tick renews it at once, and it keeps it for any length of work.
  expectedOtherwise(params) {
    const block = stallOf(params, 'blockMs', true);
    if (!endsInsideLease(block)) return null;
    return `the block (${block.stallMs} ms) ends ${block.edgeMs} ms or more inside the lease (${block.leaseMs} ms): the watchdog renews it as soon as the loop is free`;
  },
  async run(job) {
    await holdLease(
      job,
      () => takeLease(job, job.redis, job.skip),
      async (_lease, grant) => {
        // The watchdog: renew the lease every third of it while the job runs — when the loop lets it.
        const stopWatchdog = startWatchdog(job, job.renewEveryMs);
        try {
          job.blockEventLoop(); // worker-1: a long synchronous task — no timer fires, the watchdog's included
          await job.work();
          const content = `statement by ${job.workerId}`;
          await job.write('update statements set content = $1, fence = $2, writer = $3 where id = 1', [content, grant, job.workerId]);
          job.emit({ type: 'write-accepted', target: 'statement', value: content, fence: grant });
        } finally {
          stopWatchdog();
        }
      },
    );
  },
});
