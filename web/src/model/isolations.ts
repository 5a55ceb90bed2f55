// A lab node's isolations and rejoins, from the run's log: each is one fault-staged event
// per worker, "node-4 from worker-2" (isolation) and "node-4 to worker-2" (rejoin).
import type { RunEvent } from '@racelab/shared';
import { memoOnLog, type EventLog } from './memo.js';

/** The lab node an isolation or a rejoin names, and whether it cuts (true) or rejoins (false); null for any other event. */
export function nodeFault(e: RunEvent): { node: string; cut: boolean } | null {
  if (e.type !== 'fault-staged') return null;
  if (e.fault === 'isolation') return { node: e.target.split(' from ')[0]!, cut: true };
  if (e.fault === 'rejoin') return { node: e.target.split(' to ')[0]!, cut: false };
  return null;
}

/** The nodes cut now, by the last isolation or rejoin of each, in the order they were first cut. */
export function nodesCut(events: EventLog): string[] {
  const cut = new Map<string, boolean>();
  for (const e of events) {
    const f = nodeFault(e);
    if (f) cut.set(f.node, f.cut);
  }
  return [...cut].filter(([, now]) => now).map(([node]) => node);
}

/**
 * The nodes cut now, space-separated: a primitive for a store selector, folded once per
 * version of the log (a selector runs on every change of the store, and the log is long).
 */
export const nodesCutKey = memoOnLog((events: EventLog): string => nodesCut(events).join(' '));
