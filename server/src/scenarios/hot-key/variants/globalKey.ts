import { holdLease } from '../../kit/holdLease.js';
import { defineVariant } from '../../types.js';
import { waitTurn, type EntityJob } from '../entityJob.js';
import { entitiesInParallel } from '../jobPlan.js';
import { LOCK_KEY } from '../keys.js';

export default defineVariant<EntityJob>({
  id: 'global-key',
  title: 'One lock key for every entity',
  correct: false,
  summary:
    'Every job takes the same lock, whatever entity it is about. Safe — no two jobs ever overlap — but the 20 jobs for 5 customers run one at a time: a queue of one.',
  figures: '20 jobs, 5 customers, 200 ms each: most jobs at once 1 (should be 5), wall time 4000 ms',
  source: import.meta.url,
  // With one customer (or one job) a key per customer is one key too: nothing to serialise.
  expectedOtherwise: (params) =>
    entitiesInParallel(params) === 1
      ? 'only one customer has jobs to run: one key for all is the same queue as one key per customer'
      : null,
  async run(job) {
    const lease = job.lease(LOCK_KEY); // one key for all entities: customer-1 waits on customer-2's job
    // Every job must run, so a loser waits its turn and tries again; it does not skip.
    await holdLease(
      lease,
      () => waitTurn(job, lease),
      () => job.sync(lease.lockKey),
    );
  },
});
