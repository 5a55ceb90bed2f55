// A lab node's faults, from the run's log: its isolations and rejoins (one fault-staged event
// per worker, "node-4 from worker-2" and "node-4 to worker-2") and its slows and restores (one
// per worker that reaches it, "node-3 +300 ms, 5% lost for worker-2" and "node-3 at full speed
// for worker-2"). Read from the events' fields (node, slowdown), never from their words.
import { slowdownWords, type RunEvent } from '@racelab/shared';
import { memoOnLog, type EventLog } from './memo.js';

/** A lab node cut from the workers (an isolation, ended by a rejoin) or slowed (a slowdown, ended by a restore). */
export type NodeFaultKind = 'cut' | 'slow';

export interface NodeFault {
  kind: NodeFaultKind;
  node: string;
  /** True when it strikes the node (isolation, slowdown), false when it ends (rejoin, restore). */
  on: boolean;
  /** What a slowdown adds, in words ("node-3 +300 ms, 5% lost"); null for any other. */
  slowWords: string | null;
}

/** The lab node fault an event stages; null for any other event (a split's partition, a clock jump, …). */
export function nodeFault(e: RunEvent): NodeFault | null {
  if (e.type !== 'fault-staged' || e.node === null) return null;
  const { node } = e;
  switch (e.fault) {
    case 'isolation':
    case 'rejoin':
      return { kind: 'cut', node, on: e.fault === 'isolation', slowWords: null };
    case 'slowdown':
    case 'slowdown-ended':
      return { kind: 'slow', node, on: e.fault === 'slowdown', slowWords: e.slowdown && slowdownWords(node, e.slowdown) };
    default:
      return null;
  }
}

/** A worker's whole link cut (its partition from every host), as against a split's partition from one node. */
export function isLinkCut(e: RunEvent): boolean {
  return e.type === 'fault-staged' && e.fault === 'partition' && e.node === null;
}

/** The nodes cut and slowed now, each by its last fault of that kind, in the order they were first struck. */
export interface NodesStruck {
  cut: string[];
  slowed: string[];
}

/** One fold over the log for both kinds. */
export function nodesStruck(events: EventLog): NodesStruck {
  const now: Record<NodeFaultKind, Map<string, boolean>> = { cut: new Map(), slow: new Map() };
  for (const e of events) {
    const f = nodeFault(e);
    if (f) now[f.kind].set(f.node, f.on);
  }
  const struck = (kind: NodeFaultKind) => [...now[kind]].filter(([, on]) => on).map(([node]) => node);
  return { cut: struck('cut'), slowed: struck('slow') };
}

/** The same, folded once per version of the log (the log is long, and each batch renders the rows). */
export const nodesStruckNow = memoOnLog(nodesStruck);
