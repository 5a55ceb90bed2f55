// pg-fence, with the fence compared in application code: the worker reads the row's fence
// and compares it in JavaScript as it takes the lock, before its work, then writes without
// the guard. The failover and worker-2's write fall between the check and the write.
import { mutantOf } from '../../types.js';
import pgFence from '../variants/pgFence.js';
import noFenceGuard from './noFenceGuard.js';

export default mutantOf(pgFence, {
  id: 'fence-compared-in-app',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: "Fence compared in the application",
  summary: "worker-1 checks the row's fence (0 < 1: fine) before its work; worker-2 writes fence 2 meanwhile, and worker-1's unguarded write lands.",
  source: import.meta.url,
  steps: {
    async acquire(job) {
      const grant = await pgFence.steps.acquire(job);
      if (!grant) return null;
      // The mistake: the check is a read, and the write that follows (unguarded) does not repeat it.
      const { rows } = await job.pg.query<{ fence: number }>('select fence from documents where id = 1');
      if (rows[0]!.fence < grant.fence) return grant;
      await job.release();
      return null;
    },
    write: noFenceGuard.steps.write,
  },
});
