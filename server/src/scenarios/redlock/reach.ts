// Which nodes each worker's network reaches. "all": every worker reaches every node.
// "split": a partition cuts the cluster so that worker-1 reaches nodes 1–3 and worker-2
// nodes 3–5; node 3 sits on both sides. A node out of reach answers nothing at all.
import { JUMPING_NODE, NODE_COUNT } from './keys.js';

export type Reach = 'all' | 'split';

export function asReach(value: string): Reach {
  if (value !== 'all' && value !== 'split') throw new Error(`unknown reach '${value}'`);
  return value;
}

const everyNode = Array.from({ length: NODE_COUNT }, (_, i) => i);

/** Node indices (0-based) the worker at `workerIndex` (0-based) reaches. */
export function reachableNodes(reach: Reach, workerIndex: number): number[] {
  if (reach === 'all') return everyNode;
  return workerIndex === 0 ? [0, 1, JUMPING_NODE] : [JUMPING_NODE, 3, 4];
}

/**
 * The node where worker-1's lock is the last to go among those worker-2 needs: node 5
 * when both reach every node (keys are set in node order with one lease, so node 5's
 * expires last), node 3 in a split (the one node both sides share). Once the lock is
 * gone from it, worker-2 can take a majority; the choreography decides on this node.
 */
export function decidingNode(reach: Reach): number {
  return reach === 'all' ? NODE_COUNT - 1 : JUMPING_NODE;
}
