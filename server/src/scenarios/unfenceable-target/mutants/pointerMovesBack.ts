// fenced-pointer, with a pointer that may move backwards: the UPDATE that publishes a file
// has no `and fence < $2`, so the stale upload is published over the newer one.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineMutant } from '../../types.js';
import type { UploadJob } from '../uploadJob.js';

export default defineMutant<UploadJob>({
  id: 'pointer-moves-back',
  of: 'fenced-pointer',
  mistake: "publishes with no `where fence < $new`: the pointer may move back to an older fence",
  failsAt: {},
  title: "A pointer that moves backwards",
  summary: "Every upload still gets a file of its own, but the pointer row takes any fence: worker-1's stale fence-1 file is published over fence 2.",
  source: import.meta.url,
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
        // The mistake: the guard `and fence < $2` is missing.
        const { rowCount } = await job.pg.query(
          'update published set file = $1, fence = $2, writer = $3 where id = 1',
          [file, fence, job.workerId],
        );
        return rowCount === 1;
      });
    } finally {
      await job.finish();
    }
  },
});
