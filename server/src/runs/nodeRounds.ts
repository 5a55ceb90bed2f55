// A run's faults on its lab nodes that last a while: an isolate until its rejoin, a slow
// until its restore. Each is asked for live from the page or by a fault plan at a checkpoint
// (then for `ms`, or to the run's end), and made by the scenario (its fixture: a kernel rule
// or qdisc, or the lab's proxy). The run logs the faults as played, each with its mechanism,
// and only then sets the node's latch, so a worker learns of a fault, or of its end, once it
// is real. A node's fault may be asked for again once it has ended: each is a round of its
// own, with latches of its own (`isolated:node-3#2`, `rejoined:node-3#2`). A node's faults
// and their ends are made one at a time, in the order they were asked for.
import type { StagedFault } from '@racelab/shared';
import { afterAtLeast } from '../time/clock.js';

export interface NodeRoundsHost {
  /** Logs a staged fault (nothing once the run has ended). */
  staged(fault: StagedFault): void;
  /** A line for the server's log: a fault or its end that failed. */
  logLine(line: string): void;
}

/** A fault in place on one node: the faults as played (one per worker), and how to end it. */
export interface NodeRoundMade {
  faults: StagedFault[];
  /** Ends the fault; resolves with its ends as played, one per worker. */
  end(): Promise<StagedFault[]>;
}

/** The words and latches of one kind of node fault. */
export interface NodeRoundKind {
  /** "isolate", "slow": what a page or plan asks for. */
  verb: string;
  /** "isolated", "slowed": a node the fault is on. */
  state: string;
  /** "isolating", "slowing"; "rejoining", "restoring": for the server's log. */
  doing: string;
  undoing: string;
  /** The error when a run has no such node (lab nodes it has: `nodes`). */
  notANode(node: string, nodes: string[]): string;
  /** The latch set once the node's `round`th fault is made, and the one once it is undone. */
  madeLatch(node: string, round: number): string;
  endedLatch(node: string, round: number): string;
}

interface NodeState {
  /** On, as asked for: from an ask until its end (the kernel may still be making it). */
  on: boolean;
  /** Asks so far (faults and ends): one that fails changes what was asked for only if no ask came after it. */
  asks: number;
  /** The node's faults and ends, one after the other. */
  queue: Promise<void>;
  /** The fault in place, and its round (1 for the node's first). */
  made?: NodeRoundMade;
  round: number;
  /** Cancels the end a planned fault's `ms` will ask for. */
  cancelTimer?: () => void;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class NodeRounds<Args> {
  private makers: Record<string, (args: Args) => Promise<NodeRoundMade>> = {};
  private signal: (latch: string) => void = () => undefined;
  private readonly states = new Map<string, NodeState>();
  private ended = false;

  constructor(
    private readonly host: NodeRoundsHost,
    private readonly kind: NodeRoundKind,
  ) {}

  /** The fixture's ways of making the fault on each node, once the run's lab is set up, and how to tell the workers. */
  use(makers: Record<string, (args: Args) => Promise<NodeRoundMade>>, signal: (latch: string) => void): void {
    this.makers = makers;
    this.signal = signal;
  }

  /** Node names the fault may strike. */
  get nodes(): string[] {
    return Object.keys(this.makers);
  }

  /**
   * Makes the fault on the node, until its end (after `ms` when given); `onMade` runs once it
   * is made (or could not be). Returns an error when it cannot.
   */
  start(node: string, args: Args, onMade: () => void = () => undefined, ms?: number): string | undefined {
    const make = this.makers[node];
    if (!make) return this.kind.notANode(node, this.nodes);
    const state = this.stateOf(node);
    if (state.on) return `${node} is already ${this.kind.state}`;
    state.on = true;
    const ask = ++state.asks;
    this.then(state, async () => {
      try {
        if (state.made) return; // still on: its end failed, and this ask keeps it so
        const made = await make(args);
        state.made = made;
        state.round++;
        if (this.ended) return;
        for (const fault of made.faults) this.host.staged(fault);
        this.signal(this.kind.madeLatch(node, state.round));
        // The fault lasts `ms` from the moment it is made (not from the ask), never a millisecond less.
        if (ms !== undefined && state.asks === ask) state.cancelTimer = afterAtLeast(ms, () => this.stop(node));
      } catch (error) {
        this.host.logLine(`${this.kind.doing} ${node}: ${message(error)}`);
        if (state.asks === ask) state.on = false;
      } finally {
        onMade();
      }
    });
    return undefined;
  }

  /** Ends the node's fault; returns an error when it has none. */
  stop(node: string): string | undefined {
    if (!this.makers[node]) return this.kind.notANode(node, this.nodes);
    const state = this.stateOf(node);
    if (!state.on) return `${node} is not ${this.kind.state}`;
    state.on = false;
    const ask = ++state.asks;
    state.cancelTimer?.();
    state.cancelTimer = undefined;
    this.then(state, async () => {
      const made = state.made;
      if (!made) return; // it failed to be made: nothing to undo
      try {
        const faults = await made.end();
        state.made = undefined;
        if (this.ended) return;
        for (const fault of faults) this.host.staged(fault);
        this.signal(this.kind.endedLatch(node, state.round));
      } catch (error) {
        // Still on: a later end may try again.
        this.host.logLine(`${this.kind.undoing} ${node}: ${message(error)}`);
        if (state.asks === ask) state.on = true;
      }
    });
    return undefined;
  }

  /** The run is over: a fault or an end still on its way is not logged, and no planned end is still to come. */
  end(): void {
    this.ended = true;
    for (const state of this.states.values()) state.cancelTimer?.();
  }

  private stateOf(node: string): NodeState {
    let state = this.states.get(node);
    if (!state) this.states.set(node, (state = { on: false, asks: 0, queue: Promise.resolve(), round: 0 }));
    return state;
  }

  private then(state: NodeState, step: () => Promise<void>): void {
    state.queue = state.queue.then(step);
  }
}
