import { defineMutant } from '../../types.js';
import type { CheckJob } from '../checkJob.js';

export default defineMutant<CheckJob>({
  id: 'unguarded-fallback',
  of: 'database-guard',
  mistake: 'when the guarded update matches no row, writes again without the guard',
  failsAt: {},
  title: "Fence compared in the update's WHERE, with a fallback",
  summary:
    'The guarded update is right, but "0 rows" is read as "nothing written yet" and followed by a plain update: the refused stale write goes in by the side door.',
  source: import.meta.url,
  checkpoints: ['before-write'],
  async run(job) {
    const lease = await job.acquire(); // the lease and a fence number, in one step
    if (!lease) return;
    try {
      await job.checkpoint('before-write');
      // Check and write in one statement: nothing can come between them.
      const updated = await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4 and fence < $3', [
        job.content,
        job.workerId,
        lease.fence,
        job.doc,
      ]);
      // The mistake: a refusal is taken for a missing write, and the write bypasses the fence.
      if (updated === 0)
        await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4', [
          job.content,
          job.workerId,
          lease.fence,
          job.doc,
        ]);
    } finally {
      await job.release();
    }
  },
});
