// watchdog-fenced, with the fence compared in application code: the worker reads the row's
// fence and compares it in JavaScript as it takes the lease, then writes without the guard.
// The block falls between the check and the write, and the newer fence arrives in that gap.
import { fenceReadFirst } from '../../kit/fenceReadFirst.js';
import { mutantOf } from '../../types.js';
import watchdogFenced from '../variants/watchdogFenced.js';
import noFenceGuard from './noFenceGuard.js';

export default mutantOf(watchdogFenced, {
  id: 'fence-compared-in-app',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: 'Watchdog and a fence compared in the application',
  summary: "worker-1 checks the row's fence (0 < 1: fine), blocks its loop, and writes without the guard after worker-2 wrote fence 2.",
  source: import.meta.url,
  steps: {
    // The mistake: the check is a read, and the write that follows (unguarded) does not repeat it.
    acquire: fenceReadFirst(watchdogFenced.steps.acquire, 'statements', (job) => job.release()),
    write: noFenceGuard.steps.write,
  },
});
