// pg-fence, with the fence compared in application code: the worker reads the row's fence
// and compares it in JavaScript as it takes the lock, before its work, then writes without
// the guard. The failover and worker-2's write fall between the check and the write.
import { fenceReadFirst } from '../../kit/fenceReadFirst.js';
import { mutantOf } from '../../types.js';
import pgFence from '../variants/pgFence.js';
import noFenceGuard from './noFenceGuard.js';

export default mutantOf(pgFence, {
  id: 'fence-compared-in-app',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: 'Fence compared in the application',
  summary:
    "worker-1 checks the row's fence (0 < 1: fine) before its work; worker-2 writes fence 2 meanwhile, and worker-1's unguarded write lands.",
  source: import.meta.url,
  steps: {
    // The mistake: the check is a read, and the write that follows (unguarded) does not repeat it.
    acquire: fenceReadFirst(pgFence.steps.acquire, 'documents', (job) => job.release()),
    write: noFenceGuard.steps.write,
  },
});
