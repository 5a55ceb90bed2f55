// A run's isolations of lab nodes: the page's "isolate node-3" and a fault plan's `isolate`
// at a checkpoint cut one of the scenario's nodes from every worker, to the run's end. How
// the cut is made is the scenario's (its fixture's `isolate`: a kernel rule in each worker's
// namespace, or the lab's proxy); the run logs the faults as played, each with its
// mechanism, and only then sets the node's latch, so a worker learns of the cut once it is real.
import type { StagedFault } from '@racelab/shared';
import type { NodeCut } from '../scenarios/types.js';
import { isolatedLatch } from '../worker/latches.js';

export interface NodeIsolationHost {
  /** Logs a staged fault (nothing once the run has ended). */
  staged(fault: StagedFault): void;
  /** A line for the server's log: a cut that failed. */
  logLine(line: string): void;
}

/** Why a node cannot be isolated: the words of the error a page or plan gets. */
export const notANode = (node: string, nodes: string[]): string =>
  nodes.length === 0
    ? `no lab node '${node}' to isolate: an isolate needs a scenario whose lab has nodes a worker reaches over the network (redlock)`
    : `no lab node '${node}' in this run; known: ${nodes.join(', ')}`;

export class NodeIsolation {
  private cuts: Record<string, NodeCut> = {};
  private signal: (latch: string) => void = () => undefined;
  private readonly isolated = new Set<string>();
  private ended = false;

  constructor(private readonly host: NodeIsolationHost) {}

  /** The fixture's cuts, once the run's lab is set up, and how to tell the workers. */
  useCuts(cuts: Record<string, NodeCut>, signal: (latch: string) => void): void {
    this.cuts = cuts;
    this.signal = signal;
  }

  /** Node names that can be isolated. */
  get isolatable(): string[] {
    return Object.keys(this.cuts);
  }

  /** Cuts the node from every worker; `onCut` runs once it is cut (or could not be). Returns an error when it cannot. */
  isolate(node: string, onCut: () => void = () => undefined): string | undefined {
    const cut = this.cuts[node];
    if (!cut) return notANode(node, this.isolatable);
    if (this.isolated.has(node)) return `${node} is already isolated`;
    this.isolated.add(node);
    void cut()
      .then((faults) => {
        if (this.ended) return;
        for (const fault of faults) this.host.staged(fault);
        this.signal(isolatedLatch(node));
      })
      .catch((error: unknown) => this.host.logLine(`isolating ${node}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(onCut);
    return undefined;
  }

  /** The run is over: a cut still on its way is not logged. */
  end(): void {
    this.ended = true;
  }
}
