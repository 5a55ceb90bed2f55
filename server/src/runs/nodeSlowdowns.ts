// A run's slow lab nodes: the page's "slow node-3" and a fault plan's `slow` at a checkpoint
// add latency (and loss) to every worker's traffic with one of the scenario's nodes, until
// the page's "restore node-3", the plan's `ms` run out, or the run's end. How the slow is made
// and undone is the scenario's (its fixture's `slow`: netem on each worker's link, or the
// lab's delaying proxy); the rounds, the log and the latches are nodeRounds.ts's.
import type { Slowdown } from '../labnet/delayRelay.js';
import type { NodeSlow } from '../scenarios/types.js';
import { restoredLatch, slowedLatch } from '../worker/latches.js';
import { notANode } from './nodeIsolation.js';
import { NodeRounds, type NodeRoundMade, type NodeRoundsHost } from './nodeRounds.js';

export class NodeSlowdowns extends NodeRounds<Slowdown> {
  constructor(host: NodeRoundsHost) {
    super(host, {
      verb: 'slow',
      state: 'slowed',
      doing: 'slowing',
      undoing: 'restoring',
      notANode: (node, nodes) => notANode(node, nodes, 'slow'),
      madeLatch: slowedLatch,
      endedLatch: restoredLatch,
    });
  }

  /** The fixture's slows, once the run's lab is set up, and how to tell the workers. */
  useSlows(slows: Record<string, NodeSlow>, signal: (latch: string) => void): void {
    const makers: Record<string, (slowdown: Slowdown) => Promise<NodeRoundMade>> = {};
    for (const [node, slow] of Object.entries(slows)) {
      makers[node] = async (slowdown) => {
        const made = await slow(slowdown);
        return { faults: made.faults, end: () => made.restore() };
      };
    }
    this.use(makers, signal);
  }

  /** Slows the node for every worker, until a restore (after `ms` when given); `onSlowed` runs once it is slowed (or could not be). Returns an error when it cannot. */
  slow(node: string, slowdown: Slowdown, onSlowed: () => void = () => undefined, ms?: number): string | undefined {
    return this.start(node, slowdown, onSlowed, ms);
  }

  /** Brings the node back to full speed; returns an error when it is not slowed. */
  restore(node: string): string | undefined {
    return this.stop(node);
  }
}
