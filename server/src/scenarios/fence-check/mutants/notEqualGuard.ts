import { defineMutant } from '../../types.js';
import type { CheckJob } from '../checkJob.js';

export default defineMutant<CheckJob>({
  id: 'not-equal-guard',
  of: 'database-guard',
  mistake: 'guards with fence <> $new (a different fence) instead of fence < $new (an older one)',
  failsAt: {},
  title: "Fence compared in the update's WHERE with <>",
  summary:
    'The guard asks whether the fence changed, not whether it grew: the stale fence 1 differs from the stored 2, so the stale write lands.',
  source: import.meta.url,
  checkpoints: ['before-write'],
  async run(job) {
    const lease = await job.acquire(); // the lease and a fence number, in one step
    if (!lease) return;
    try {
      await job.checkpoint('before-write');
      // The mistake: "not the same fence" lets an older fence through.
      await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4 and fence <> $3', [
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
