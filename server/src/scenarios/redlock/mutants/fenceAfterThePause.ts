// redlock-fenced, with the fence number taken when the worker is about to write, after its
// pause, instead of right after the grant: the older holder gets the higher number.
import { mutantOf } from '../../types.js';
import redlockFenced from '../variants/redlockFenced.js';
import { takeMajority } from '../variants/redlock.js';

export default mutantOf(redlockFenced, {
  id: 'fence-after-the-pause',
  mistake: 'takes the fence from the sequence after the pause, not right after the grant',
  failsAt: {},
  title: 'Fence taken late',
  summary:
    "worker-1 takes its number only after its stop, when worker-2 already has fence 1: worker-1's stale write carries fence 2 and the guard lets it in.",
  source: import.meta.url,
  steps: {
    acquire: async (job) => {
      const lock = await takeMajority(job);
      return lock && { ...lock, fence: 0 }; // no number yet
    },
    async write(job, content) {
      // The mistake: the number is taken now, after the stop, not right after the grant.
      const { rows } = await job.pg.query<{ fence: number }>("select nextval('fences')::int as fence");
      return redlockFenced.steps.write(job, content, rows[0]!.fence);
    },
  },
});
