import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { takeWithFence } from '../../kit/acquireWithFence.js';
import { actsInsideLease } from '../../leaseHandover.js';
import { REPORT_FILE } from '../keys.js';
import { defineUploadVariant } from '../uploadJob.js';

export default defineUploadVariant({
  id: 'file-with-token',
  title: 'Fencing token written into a plain file',
  correct: false,
  summary:
    'Each upload carries its fence number inside the report, but the target is a plain file: rename replaces whatever is there. worker-1 wakes up after worker-2 uploaded with fence 2, and its fence-1 upload wins.',
  figures: 'both hold fences (1, 2); the fence-1 file replaces the fence-2 file: readers get fence 1',
  source: import.meta.url,
  // worker-1 uploads after its pause and its work; within the lease, nobody else holds it yet.
  expectedOtherwise: (params) =>
    actsInsideLease(params, 'pauseMs', 'pause', "uploads before the lease can pass on, and worker-2's upload comes last"),
  steps: {
    acquire: takeWithFence, // the lease and a fence number, in one step
    async put(job, report) {
      // Written beside it, then renamed over it: readers never see half a report. But
      // rename takes any file; nothing on the way in reads, let alone compares, the fence.
      const temp = path.join(job.dir, `.${REPORT_FILE}.${job.workerId}`);
      await writeFile(temp, report);
      await rename(temp, path.join(job.dir, REPORT_FILE));
      return true;
    },
  },
});
