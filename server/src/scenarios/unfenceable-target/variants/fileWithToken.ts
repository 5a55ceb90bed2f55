import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineVariant, intParam } from '../../types.js';
import { REPORT_FILE } from '../keys.js';
import type { UploadJob } from '../uploadJob.js';

export default defineVariant<UploadJob>({
  id: 'file-with-token',
  title: 'Fencing token written into a plain file',
  correct: false,
  summary:
    "Each upload carries its fence number inside the report, but the target is a plain file: rename replaces whatever is there. worker-1 wakes up after worker-2 uploaded with fence 2, and its fence-1 upload wins.",
  figures: 'both hold fences (1, 2); the fence-1 file replaces the fence-2 file: readers get fence 1',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  // worker-1 uploads after its pause and its work; within the lease, nobody else holds it yet.
  expectedOtherwise(params) {
    const [leaseMs, pauseMs, workMs] = [intParam(params, 'leaseMs'), intParam(params, 'pauseMs'), intParam(params, 'workMs')];
    if (pauseMs + workMs >= leaseMs) return null;
    return `worker-1's pause and work (${pauseMs} + ${workMs} ms) end inside its lease (${leaseMs} ms): it uploads before the lease can pass on, and worker-2's upload comes last`;
  },
  async run(job) {
    const fence = await job.acquire(); // the lease and a fence number, in one step
    if (fence === null) return;

    try {
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      const report = await job.work(fence); // "fence: 1" is the first line of the report
      await job.upload(fence, async () => {
        // Written beside it, then renamed over it: readers never see half a report. But
        // rename takes any file; nothing on the way in reads, let alone compares, the fence.
        const temp = path.join(job.dir, `.${REPORT_FILE}.${job.workerId}`);
        await writeFile(temp, report);
        await rename(temp, path.join(job.dir, REPORT_FILE));
        return true;
      });
    } finally {
      await job.finish();
    }
  },
});
