import { takeWithFence } from '../../kit/acquireWithFence.js';
import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { reportWrite } from '../../kit/reportWrite.js';
import { startWatchdog } from '../../kit/watchdog.js';
import { defineSteppedVariant } from '../../types.js';
import type { StatementJob, StatementSteps } from '../statementJob.js';

export default defineSteppedVariant<StatementJob, StatementSteps>({
  id: 'watchdog-fenced',
  title: 'Watchdog, and a fencing token checked by the database',
  correct: true,
  summary:
    "The same watchdog, and the same expiry while worker-1's loop is blocked: two workers believe they hold the lease. But every grant carries a higher fence number and the row takes only a higher one, so worker-1's stale write is rejected.",
  figures: '2 holders, stale writes accepted 0 (rejected 1)',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  renewsLease: true,
  steps: {
    // The lease and its fence number in one atomic step: numbers follow the order of grants.
    acquire: takeWithFence,
    // The database is the judge: a write from an older grant than the last one it took updates nothing.
    write: (job, content, fence) =>
      job.write('update statements set content = $1, fence = $2, writer = $3 where id = 1 and fence < $2', [content, fence, job.workerId]),
  },
  async run(job, { acquire, write }) {
    await holdLease(
      job,
      () => acquire(job),
      async ({ fence }) => {
        // The watchdog keeps long work covered; it cannot cover a blocked loop, so the fence has to.
        const stopWatchdog = startWatchdog(job, job.renewEveryMs);
        try {
          job.blockEventLoop(); // worker-1: a long synchronous task — no timer fires, the watchdog's included
          await job.work();
          const content = `statement by ${job.workerId}`;
          reportWrite(job, await write(job, content, fence), 'statement', content, fence);
        } finally {
          stopWatchdog();
        }
      },
    );
  },
});
