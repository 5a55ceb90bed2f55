// What the redlock node-fault tests (isolateNode, slowNode) play alike: the split and its
// one-holder outcome, on the machine's own mechanisms and with the real faults forced off.
import type { LabMechanisms } from '../labnet/mechanisms.js';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from './testPlayground.js';

/** The split: worker-1 reaches nodes 1–3 and worker-2 nodes 3–5; worker-2 asks once worker-1's lease on node-3 is over. */
export const REDLOCK_SPLIT = { reach: 'split', leaseMs: 4000, pauseMs: 6000, workMs: 100 };

/** worker-2 never holds the lock: worker-1's write is the only one, and not stale. */
export const WORKER_1_ALONE = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-1' };

/** The machine's playground (a redlock run's workers are made for it: none warm) and one with `forcedOff`'s mechanisms. */
export function openBothWays(forcedOff: LabMechanisms): Promise<[machine: Playground, fallback: Playground]> {
  return Promise.all([openTestPlayground(0), openTestPlayground(2, { labMechanisms: forcedOff })]);
}
