import { holdLease } from '../../kit/holdLease.js';
import { defineSteppedVariant } from '../../types.js';
import { waitTurn, type EntityJob, type EntitySteps } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

export default defineSteppedVariant<EntityJob, EntitySteps>({
  id: 'per-entity-key',
  title: 'One lock key per entity',
  correct: true,
  summary:
    'The lock key names the entity the job is about. Jobs of the same customer still wait for each other; jobs of different customers never do, so 5 run side by side.',
  figures: 'most jobs at once 5, never two of one customer, wall time 800 ms',
  source: import.meta.url,
  steps: {
    lockName: (job) => `${LOCK_KEY}:${job.entity}`, // lock what the job touches, nothing more
    acquire: waitTurn, // every job must run: a loser waits its turn, it does not skip
  },
  async run(job, { lockName, acquire }) {
    const lease = job.lease(lockName(job));
    await holdLease(
      lease,
      () => acquire(job, lease),
      () => job.sync(lease.lockKey),
    );
  },
});
