import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { takeLease } from '../../kit/takeLease.js';
import { actsInsideLease } from '../../leaseHandover.js';
import { defineVariant } from '../../types.js';
import type { StatementJob } from '../statementJob.js';

export default defineVariant<StatementJob>({
  id: 'no-watchdog',
  title: 'Lease, no watchdog',
  correct: false,
  summary:
    "worker-1 takes a 1 s lease and then blocks its own event loop for 1.5 s. No signal stops it; it is busy. The lease expires, worker-2 takes it and writes, and worker-1's late write lands over worker-2's.",
  figures: 'lease 1 s, event loop blocked 1.5 s: 2 holders, stale writes accepted 1',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  // worker-1 writes after its block and its work; within the lease, nobody else holds it yet.
  expectedOtherwise: (params) => actsInsideLease(params, 'blockMs', 'block', 'writes before the lease can pass on'),
  async run(job) {
    await holdLease(
      job,
      () => takeLease(job, job.redis, job.skip),
      // The lease's grant number, as the server saw it: written into the row, never compared.
      async (_lease, grant) => {
        job.blockEventLoop(); // worker-1: a long synchronous task — a breakpoint, a huge JSON.parse
        await job.work();
        const content = `statement by ${job.workerId}`;
        // Nothing tells this write that the lease has passed to someone else: it always lands.
        await job.write('update statements set content = $1, fence = $2, writer = $3 where id = 1', [content, grant, job.workerId]);
        job.emit({ type: 'write-accepted', target: 'statement', value: content, fence: grant });
      },
    );
  },
});
