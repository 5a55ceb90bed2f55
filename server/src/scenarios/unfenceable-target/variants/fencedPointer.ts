import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { takeWithFence } from '../../kit/acquireWithFence.js';
import { defineUploadVariant, type UploadJob } from '../uploadJob.js';

export default defineUploadVariant({
  id: 'fenced-pointer',
  title: 'Write-once files behind a fenced pointer row',
  correct: true,
  summary:
    "The files still cannot compare a number, so none is ever overwritten: each upload gets a name of its own, and readers follow a PostgreSQL row that moves only to a higher fence. worker-1's stale file is written, but nothing points at it.",
  figures: 'write-once file per fence, a pointer row that only moves forward: readers get fence 2',
  source: import.meta.url,
  steps: {
    acquire: takeWithFence, // the lease and a fence number, in one step
    async put(job, report, fence) {
      const file = await writeOnce(job, report, fence);
      // Publishing is the database's call: the pointer moves only to a higher fence.
      return publish(job, 'update published set file = $1, fence = $2, writer = $3 where id = 1 and fence < $2', file, fence);
    },
  },
});

/** Writes the report under a name of its own, and 'wx' fails if it exists: an upload never replaces another. Returns the name. */
export async function writeOnce(job: UploadJob, report: string, fence: number): Promise<string> {
  const file = `report-fence-${fence}.txt`;
  await writeFile(path.join(job.dir, file), report, { flag: 'wx' });
  return file;
}

/** Points readers at `file` with the UPDATE `sql` ($1 file, $2 fence, $3 writer); true when the pointer moved. */
export async function publish(job: UploadJob, sql: string, file: string, fence: number): Promise<boolean> {
  const { rowCount } = await job.pg.query(sql, [file, fence, job.workerId]);
  return rowCount === 1;
}
