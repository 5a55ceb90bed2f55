import { defineVariant } from '../../types.js';
import type { CheckJob } from '../checkJob.js';
import { wakesInLease } from '../wakesInLease.js';

export default defineVariant<CheckJob>({
  id: 'equal-lease-id',
  title: 'Storage takes writes from the registered lease id',
  correct: false,
  summary:
    'When granted, the holder registers its lease id with the row; the row takes writes carrying that id only. It refuses stale writes even before the new holder writes — but ids have no order, so a holder that registers late takes the row back.',
  figures: 'orderings let through 1 (late registration)',
  source: import.meta.url,
  expectedOtherwise: wakesInLease,
  checkpoints: ['before-register', 'before-write'],
  async run(job) {
    await job.holding(async (lease) => {
      await job.checkpoint('before-register');
      // Tell the storage who holds the lease now. Whoever registers last is "now".
      await job.pg.query('update documents set lease_id = $1 where id = $2', [lease.id, job.doc]);
      await job.checkpoint('before-write');
      // The check is in the update: only the registered lease may write.
      await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4 and lease_id = $5', lease, lease.id);
    });
  },
});
