// fenced, with the fence compared in application code: the worker reads the row's fence,
// compares it in JavaScript as it takes the lease, then writes without the guard. The stall
// falls between the check and the write, and the row's newer fence arrives in that gap.
import { fenceReadFirst } from '../../kit/fenceReadFirst.js';
import { mutantOf } from '../../types.js';
import fenced from '../variants/fenced.js';
import noFenceGuard from './noFenceGuard.js';

export default mutantOf(fenced, {
  id: 'fence-compared-in-app',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: 'Fence compared in the application',
  summary:
    "worker-1 checks the row's fence (0 < 1: fine), its process stops, worker-2 writes fence 2, and worker-1's unguarded write lands.",
  source: import.meta.url,
  steps: {
    // The mistake: the check is a read, and the write that follows (unguarded) does not repeat it.
    acquire: fenceReadFirst(fenced.steps.acquire, 'documents', (job) => job.release()),
    write: noFenceGuard.steps.write,
  },
});
