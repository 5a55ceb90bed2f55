import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineVariant } from '../../types.js';
import type { UploadJob } from '../uploadJob.js';

export default defineVariant<UploadJob>({
  id: 'fenced-pointer',
  title: 'Write-once files behind a fenced pointer row',
  correct: true,
  summary:
    "The files still cannot compare a number, so none is ever overwritten: each upload gets a name of its own, and readers follow a PostgreSQL row that moves only to a higher fence. worker-1's stale file is written, but nothing points at it.",
  figures: 'write-once file per fence, a pointer row that only moves forward: readers get fence 2',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  async run(job) {
    const fence = await job.acquire(); // the lease and a fence number, in one step
    if (fence === null) return;

    try {
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      const report = await job.work(fence);
      await job.upload(fence, async () => {
        // A name of its own, and 'wx' fails if it exists: an upload never replaces another.
        const file = `report-fence-${fence}.txt`;
        await writeFile(path.join(job.dir, file), report, { flag: 'wx' });
        // Publishing is the database's call: the pointer moves only to a higher fence.
        const { rowCount } = await job.pg.query(
          'update published set file = $1, fence = $2, writer = $3 where id = 1 and fence < $2',
          [file, fence, job.workerId],
        );
        return rowCount === 1;
      });
    } finally {
      await job.finish();
    }
  },
});
