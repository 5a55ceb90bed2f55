import { defineVariant } from '../../types.js';
import { AFTER_GRANT, type CheckJob } from '../checkJob.js';
import { wakesInLease } from '../wakesInLease.js';

export default defineVariant<CheckJob>({
  id: 'none',
  title: 'No check: the last write wins',
  correct: false,
  summary:
    "The write carries its fence number and the row stores it, but nothing compares it. Every stale write that comes after the new holder's replaces it.",
  figures: 'orderings let through 3 of 4',
  source: import.meta.url,
  expectedOtherwise: wakesInLease,
  checkpoints: [AFTER_GRANT, 'before-write'],
  async run(job) {
    await job.holding(async (lease) => {
      await job.checkpoint('before-write');
      // The fence is stored with the write, and the row even goes back to an older one.
      await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4', lease);
    });
  },
});
