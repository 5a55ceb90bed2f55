import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { takeLease } from '../../kit/takeLease.js';
import { actsInsideLease } from '../../leaseHandover.js';
import { defineVariant } from '../../types.js';
import type { DocumentJob } from '../documentJob.js';

export default defineVariant<DocumentJob>({
  id: 'lease-only',
  title: 'Lease only, unconditional write',
  correct: false,
  summary:
    "worker-1's process stops while it holds the lease; the lease expires and worker-2 takes it and writes. worker-1 wakes up still believing it holds the lease, and its stale write lands over worker-2's.",
  figures: '1 s lease, 2.5 s stall: max concurrent holders 2, stale writes accepted 1, last writer worker-1',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  // worker-1 writes after its pause and its work; within the lease, nobody else holds it yet.
  expectedOtherwise: (params) => actsInsideLease(params, 'pauseMs', 'pause', 'writes before the lease can pass on, so nothing is stale'),
  async run(job) {
    await holdLease(
      job,
      () => takeLease(job, job.redis, job.skip),
      // The lease's grant number, as the server saw it: written into the row, never compared.
      async (_lease, grant) => {
        await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
        await job.work();
        const content = `draft by ${job.workerId}`;
        // Nothing tells this write that the lease has passed to someone else: it always lands.
        await job.write('update documents set content = $1, fence = $2, writer = $3 where id = 1', [content, grant, job.workerId]);
        job.emit({ type: 'write-accepted', target: 'document', value: content, fence: grant });
      },
    );
  },
});
