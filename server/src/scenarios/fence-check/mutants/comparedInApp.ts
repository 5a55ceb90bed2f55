import { defineMutant } from '../../types.js';
import type { CheckJob } from '../checkJob.js';

export default defineMutant<CheckJob>({
  id: 'compared-in-app',
  of: 'database-guard',
  mistake: 'moves the fence comparison out of the WHERE into the application, a read before the write',
  failsAt: {},
  title: 'Fence read, compared in the application, then written',
  summary:
    'The same rule, fence < new, checked on a value read a moment earlier: a newer holder that writes in that moment is overwritten.',
  source: import.meta.url,
  checkpoints: ['before-write', 'between-check-and-write'],
  async run(job) {
    const lease = await job.acquire(); // the lease and a fence number, in one step
    if (!lease) return;
    try {
      await job.checkpoint('before-write');
      // The mistake: the check and the write are two statements; anything can come between them.
      const { rows } = await job.pg.query<{ fence: number }>('select fence from documents where id = $1', [job.doc]);
      if (rows[0]!.fence >= lease.fence) return await job.refuse(`the row holds fence ${rows[0]!.fence}`);
      await job.checkpoint('between-check-and-write');
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
