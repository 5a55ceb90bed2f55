// redlock-fenced, with the fence compared in application code: the worker reads the row's
// fence and compares it in JavaScript as it takes the lock, before its pause, then writes
// without the guard.
import { fenceReadFirst } from '../../kit/fenceReadFirst.js';
import { mutantOf } from '../../types.js';
import redlockFenced from '../variants/redlockFenced.js';
import { releaseAll } from '../variants/redlock.js';
import noFenceGuard from './noFenceGuard.js';

export default mutantOf(redlockFenced, {
  id: 'fence-compared-in-app',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: 'Fence compared in the application',
  summary: "worker-1 checks the row's fence (0 < 1: fine), stops, and writes without the guard after worker-2 wrote fence 2.",
  source: import.meta.url,
  steps: {
    // The mistake: the check is a read, and the write that follows (unguarded) does not repeat it.
    acquire: fenceReadFirst(redlockFenced.steps.acquire, 'documents', releaseAll),
    write: noFenceGuard.steps.write,
  },
});
