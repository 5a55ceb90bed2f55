import { takeWithFence } from '../../kit/acquireWithFence.js';
import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { writeDraft } from '../../kit/reportWrite.js';
import { defineSteppedVariant } from '../../types.js';
import type { DocumentJob, DocumentSteps } from '../documentJob.js';

export default defineSteppedVariant<DocumentJob, DocumentSteps>({
  id: 'fenced',
  title: 'Fencing token checked by the database',
  correct: true,
  summary:
    'Every grant of the lease comes with a higher fence number (INCR), and the row takes a write only from a fence higher than the one it holds. worker-1 still overlaps worker-2, but its stale write is rejected.',
  figures: 'max concurrent holders 2, stale writes rejected 1, fence 2, last writer worker-2',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  steps: {
    // The lease and its fence number in one atomic step: numbers follow the order of grants.
    acquire: takeWithFence,
    // The database is the judge: a write from an older grant than the last one it took updates nothing.
    write: (job, content, fence) =>
      job.write('update documents set content = $1, fence = $2, writer = $3 where id = 1 and fence < $2', [content, fence, job.workerId]),
  },
  async run(job, { acquire, write }) {
    await holdLease(
      job,
      () => acquire(job),
      async ({ fence }) => {
        await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
        await job.work();
        await writeDraft(job, fence, write);
      },
    );
  },
});
