import { defineVariant } from '../../types.js';
import type { CheckJob, Lease } from '../checkJob.js';
import { wakesInLease } from '../wakesInLease.js';

/** Reads the row's fence, refuses unless the lease's is higher, then writes: two steps. */
export async function checkThenWrite(job: CheckJob, lease: Lease): Promise<void> {
  const { rows } = await job.pg.query<{ fence: number }>('select fence from documents where id = $1', [job.doc]);
  const stored = rows[0]!.fence;
  job.emit({ type: 'value-read', target: job.doc, value: stored, version: stored });
  if (lease.fence <= stored) return await job.refuse(`the row holds fence ${stored}`);
  await job.checkpoint('between-check-and-write');
  // The check is behind us: this update trusts it, whatever happened since.
  await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4', lease);
}

export default defineVariant<CheckJob>({
  id: 'greater-than-in-app',
  title: 'Fence compared in the application, then written',
  correct: false,
  summary:
    "The application reads the row's fence and writes only with a higher one. The rule is right, but the check and the write are two steps: a new holder that writes between them is overwritten.",
  figures: 'orderings let through 1 (the new write lands between check and write)',
  source: import.meta.url,
  expectedOtherwise: wakesInLease,
  checkpoints: ['before-write', 'between-check-and-write'],
  async run(job) {
    await job.holding(async (lease) => {
      await job.checkpoint('before-write');
      await checkThenWrite(job, lease);
    });
  },
});
