// token-lua with the check and the delete as two commands, GET then DEL: a stall between
// them lets the lease lapse and pass to worker-2, and the DEL then deletes worker-2's lock.
import { mutantOf } from '../../types.js';
import { FAIL_INSIDE_THE_LEASE } from '../declaredSets.js';
import tokenLua from '../variants/tokenLua.js';

export default mutantOf(tokenLua, {
  id: 'token-lua-get-then-del',
  mistake: 'releases with GET, compare in the application, then DEL: two commands a stall can split',
  failsAt: FAIL_INSIDE_THE_LEASE,
  title: 'Unique token, but GET then DEL',
  summary:
    "worker-1's fetch fails; its GET finds its own token, then its process stalls past the lease; worker-2 takes the lock, and worker-1's DEL deletes it: worker-3 gets in while worker-2 still builds.",
  source: import.meta.url,
  checkpoints: ['working', 'report-sent', 'between-get-and-del'],
  // 3 s lease, a fetch of 100 ms: worker-1 resumes about 1.5 s after its lease lapsed and
  // 1.5 s before worker-2's does, so its DEL lands on worker-2's lock.
  faults: [{ checkpoint: 'between-get-and-del', target: 'first', action: 'stall', ms: 4400 }],
  steps: {
    async release(job, key, token) {
      // The mistake: the check and the delete are two round trips, not one atomic step.
      if ((await job.redis.get(key)) !== token) return 0;
      await job.checkpoint('between-get-and-del');
      return job.redis.del(key);
    },
  },
});
