// A run's isolations of lab nodes: the page's "isolate node-3" and a fault plan's `isolate`
// at a checkpoint cut one of the scenario's nodes from every worker, until the page's
// "rejoin node-3", the plan's `ms` run out, or the run's end. How the cut is made and undone
// is the scenario's (its fixture's `isolate`: a kernel rule in each worker's namespace, or
// the lab's proxy); the run logs the faults as played, each with its mechanism, and only
// then sets the node's latch, so a worker learns of a cut, or of its end, once it is real.
// A node may be isolated again once it has rejoined: each cut is a round of its own, with
// latches of its own (`isolated:node-3#2`, `rejoined:node-3#2`). A node's cuts and rejoins
// are made one at a time, in the order they were asked for.
import type { StagedFault } from '@racelab/shared';
import type { NodeCut, NodeCutMade } from '../scenarios/types.js';
import { afterAtLeast } from '../time/clock.js';
import { isolatedLatch, rejoinedLatch } from '../worker/latches.js';

export interface NodeIsolationHost {
  /** Logs a staged fault (nothing once the run has ended). */
  staged(fault: StagedFault): void;
  /** A line for the server's log: a cut or a rejoin that failed. */
  logLine(line: string): void;
}

/** Why a node cannot be isolated: the words of the error a page or plan gets. */
export const notANode = (node: string, nodes: string[]): string =>
  nodes.length === 0
    ? `no lab node '${node}' to isolate: an isolate needs a scenario whose lab has nodes a worker reaches over the network (redlock)`
    : `no lab node '${node}' in this run; known: ${nodes.join(', ')}`;

interface NodeState {
  /** Cut, as asked for: from an isolate until its rejoin (the kernel may still be making it). */
  cut: boolean;
  /** Asks so far (isolates and rejoins): a cut or a rejoin that fails changes what was asked for only if no ask came after it. */
  asks: number;
  /** The node's cuts and rejoins, one after the other. */
  queue: Promise<void>;
  /** The cut in place, and its round (1 for the node's first cut). */
  made?: NodeCutMade;
  round: number;
  /** Cancels the rejoin a planned isolate's `ms` will ask for. */
  cancelTimer?: () => void;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class NodeIsolation {
  private cuts: Record<string, NodeCut> = {};
  private signal: (latch: string) => void = () => undefined;
  private readonly nodes = new Map<string, NodeState>();
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

  /**
   * Cuts the node from every worker, until a rejoin (after `ms` when given); `onCut` runs
   * once it is cut (or could not be). Returns an error when it cannot.
   */
  isolate(node: string, onCut: () => void = () => undefined, ms?: number): string | undefined {
    const cut = this.cuts[node];
    if (!cut) return notANode(node, this.isolatable);
    const state = this.stateOf(node);
    if (state.cut) return `${node} is already isolated`;
    state.cut = true;
    const ask = ++state.asks;
    this.then(state, async () => {
      try {
        if (state.made) return; // still cut: its rejoin failed, and this isolate keeps it so
        const made = await cut();
        state.made = made;
        state.round++;
        if (this.ended) return;
        for (const fault of made.faults) this.host.staged(fault);
        this.signal(isolatedLatch(node, state.round));
        // The node stays cut `ms` from the moment it is cut (not from the ask), never a millisecond less.
        if (ms !== undefined && state.asks === ask) state.cancelTimer = afterAtLeast(ms, () => this.rejoin(node));
      } catch (error) {
        this.host.logLine(`isolating ${node}: ${message(error)}`);
        if (state.asks === ask) state.cut = false;
      } finally {
        onCut();
      }
    });
    return undefined;
  }

  /** Lets the node reach every worker again; returns an error when it is not isolated. */
  rejoin(node: string): string | undefined {
    if (!this.cuts[node]) return notANode(node, this.isolatable);
    const state = this.stateOf(node);
    if (!state.cut) return `${node} is not isolated`;
    state.cut = false;
    const ask = ++state.asks;
    state.cancelTimer?.();
    state.cancelTimer = undefined;
    this.then(state, async () => {
      const made = state.made;
      if (!made) return; // its cut failed: nothing to undo
      try {
        const faults = await made.rejoin();
        state.made = undefined;
        if (this.ended) return;
        for (const fault of faults) this.host.staged(fault);
        this.signal(rejoinedLatch(node, state.round));
      } catch (error) {
        // Still cut: a later rejoin may try again.
        this.host.logLine(`rejoining ${node}: ${message(error)}`);
        if (state.asks === ask) state.cut = true;
      }
    });
    return undefined;
  }

  /** The run is over: a cut or a rejoin still on its way is not logged, and no planned rejoin is still to come. */
  end(): void {
    this.ended = true;
    for (const state of this.nodes.values()) state.cancelTimer?.();
  }

  private stateOf(node: string): NodeState {
    let state = this.nodes.get(node);
    if (!state) this.nodes.set(node, (state = { cut: false, asks: 0, queue: Promise.resolve(), round: 0 }));
    return state;
  }

  private then(state: NodeState, step: () => Promise<void>): void {
    state.queue = state.queue.then(step);
  }
}
