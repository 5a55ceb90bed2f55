import { defineSteppedVariant } from '../../types.js';
import type { CheckJob, CheckSteps } from '../checkJob.js';

export default defineSteppedVariant<CheckJob, CheckSteps>({
  id: 'database-guard',
  title: "Fence compared in the update's WHERE",
  correct: true,
  summary:
    "The comparison is part of the write: PostgreSQL checks the fence and updates the row in one statement, under the row's lock. No stale write replaces a newer one, in any ordering.",
  figures: 'orderings let through 0',
  source: import.meta.url,
  checkpoints: ['before-write'],
  steps: {
    // Check and write in one statement: nothing can come between them.
    write: (job, lease) => job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4 and fence < $3', lease),
  },
  async run(job, { write }) {
    await job.holding(async (lease) => {
      await job.checkpoint('before-write');
      await write(job, lease);
    });
  },
});
