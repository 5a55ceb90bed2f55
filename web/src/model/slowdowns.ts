// A lab node's slows and restores, from the run's log: each is one fault-staged event per
// worker that reaches the node, "node-3 +300 ms, 5% lost for worker-2" (slowdown) and
// "node-3 at full speed for worker-2" (slowdown-ended).
import type { RunEvent } from '@racelab/shared';
import { memoOnLog, type EventLog } from './memo.js';

/** The lab node a slowdown or its end names, whether it slows (true) or restores (false), and what was added ("node-3 +300 ms"); null for any other event. */
export function nodeSlowdown(e: RunEvent): { node: string; slowed: boolean; words: string } | null {
  if (e.type !== 'fault-staged' || (e.fault !== 'slowdown' && e.fault !== 'slowdown-ended')) return null;
  const words = e.target.split(' for ')[0]!;
  return { node: words.split(' ')[0]!, slowed: e.fault === 'slowdown', words };
}

/** The nodes slowed now, by the last slowdown or restore of each, in the order they were first slowed. */
export function nodesSlowed(events: EventLog): string[] {
  const slowed = new Map<string, boolean>();
  for (const e of events) {
    const f = nodeSlowdown(e);
    if (f) slowed.set(f.node, f.slowed);
  }
  return [...slowed].filter(([, now]) => now).map(([node]) => node);
}

/** The nodes slowed now, space-separated: a primitive for a store selector, folded once per version of the log. */
export const nodesSlowedKey = memoOnLog((events: EventLog): string => nodesSlowed(events).join(' '));
