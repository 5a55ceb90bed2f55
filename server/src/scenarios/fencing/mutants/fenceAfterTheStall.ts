// fenced, with the fence taken by its own INCR after the SET, not in the same atomic step:
// a process that stops between the two gets its number after a later holder got its own.
import { takeLease } from '../../kit/takeLease.js';
import { mutantOf } from '../../types.js';
import fenced from '../variants/fenced.js';

export default mutantOf(fenced, {
  id: 'fence-after-the-stall',
  mistake: 'takes the fence with a separate INCR after SET NX, so a stall between the two reorders the numbers',
  failsAt: {},
  title: 'Fence taken apart from the lease',
  summary:
    "worker-1 takes the lease, stops, and only then INCRs: worker-2 got fence 1 meanwhile, so worker-1's stale write carries fence 2 and the guard lets it in.",
  source: import.meta.url,
  steps: {
    acquire: async (job) => {
      const lease = await takeLease(job, job.redis, job.skip);
      return lease && { ...lease, fence: 0 }; // no number yet
    },
    // The mistake: the number comes from its own command, after whatever stall came first.
    write: async (job, content) => fenced.steps.write(job, content, await job.redis.incr(job.fenceKey)),
  },
});
