import { defineVariant } from '../../types.js';
import type { CheckJob } from '../checkJob.js';

export default defineVariant<CheckJob>({
  id: 'database-guard',
  title: "Fence compared in the update's WHERE",
  correct: true,
  summary:
    "The comparison is part of the write: PostgreSQL checks the fence and updates the row in one statement, under the row's lock. No stale write replaces a newer one, in any ordering.",
  figures: 'orderings let through 0',
  source: import.meta.url,
  checkpoints: ['before-write'],
  async run(job) {
    const lease = await job.acquire(); // the lease and a fence number, in one step
    if (!lease) return;
    try {
      await job.checkpoint('before-write');
      // Check and write in one statement: nothing can come between them.
      await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4 and fence < $3', [
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
