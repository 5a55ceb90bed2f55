// A run's isolations of lab nodes: the page's "isolate node-3" and a fault plan's `isolate`
// at a checkpoint cut one of the scenario's nodes from every worker, until the page's
// "rejoin node-3", the plan's `ms` run out, or the run's end. How the cut is made and undone
// is the scenario's (its fixture's `isolate`: a kernel rule in each worker's namespace, or
// the lab's proxy); the rounds, the log and the latches are nodeRounds.ts's.
import type { NodeCut } from '../scenarios/types.js';
import { isolatedLatch, rejoinedLatch } from '../worker/latches.js';
import { NodeRounds, type NodeRoundMade, type NodeRoundsHost } from './nodeRounds.js';

/** Why a node cannot be struck by `verb` ("isolate", "slow"): the words of the error a page or plan gets. */
export const notANode = (node: string, nodes: string[], verb = 'isolate'): string =>
  nodes.length === 0
    ? `no lab node '${node}' to ${verb}: ${verb === 'isolate' ? 'an' : 'a'} ${verb} needs a scenario whose lab has nodes a worker reaches over the network (redlock)`
    : `no lab node '${node}' in this run; known: ${nodes.join(', ')}`;

export class NodeIsolation extends NodeRounds<void> {
  constructor(host: NodeRoundsHost) {
    super(host, {
      verb: 'isolate',
      state: 'isolated',
      doing: 'isolating',
      undoing: 'rejoining',
      notANode: (node, nodes) => notANode(node, nodes),
      madeLatch: isolatedLatch,
      endedLatch: rejoinedLatch,
    });
  }

  /** The fixture's cuts, once the run's lab is set up, and how to tell the workers. */
  useCuts(cuts: Record<string, NodeCut>, signal: (latch: string) => void): void {
    const makers: Record<string, () => Promise<NodeRoundMade>> = {};
    for (const [node, cut] of Object.entries(cuts)) {
      makers[node] = async () => {
        const made = await cut();
        return { faults: made.faults, end: () => made.rejoin() };
      };
    }
    this.use(makers, signal);
  }

  /** Node names that can be isolated. */
  get isolatable(): string[] {
    return this.nodes;
  }

  /** Cuts the node from every worker, until a rejoin (after `ms` when given); `onCut` runs once it is cut (or could not be). Returns an error when it cannot. */
  isolate(node: string, onCut: () => void = () => undefined, ms?: number): string | undefined {
    return this.start(node, undefined, onCut, ms);
  }

  /** Lets the node reach every worker again; returns an error when it is not isolated. */
  rejoin(node: string): string | undefined {
    return this.stop(node);
  }
}
