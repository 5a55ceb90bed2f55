import { defineMutant } from '../../types.js';
import type { CheckJob } from '../checkJob.js';

export default defineMutant<CheckJob>({
  id: 'fence-not-stored',
  of: 'database-guard',
  mistake: 'compares the fence in the WHERE but never stores the new one in the SET',
  failsAt: {},
  title: "Fence compared in the update's WHERE, never stored",
  summary:
    "The guard is in the statement, but the row's fence stays 0: every fence is greater than 0, so the stale write lands after the newer one.",
  source: import.meta.url,
  checkpoints: ['before-write'],
  async run(job) {
    const lease = await job.acquire(); // the lease and a fence number, in one step
    if (!lease) return;
    try {
      await job.checkpoint('before-write');
      // The mistake: the SET leaves the fence alone, so the WHERE compares against 0 forever.
      await job.write('update documents set content = $1, writer = $2 where id = $4 and fence < $3', [
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
