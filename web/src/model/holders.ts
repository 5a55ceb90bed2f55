// Holders at once: where two or more workers believed they held the same lock.
import { groupBy } from './groupBy.js';
import { deriveLeases } from './leases.js';
import { memoOnLog, type EventLog } from './memo.js';

export interface HolderSpan {
  key: string;
  startMs: number;
  /** null: still going at the live edge. */
  endMs: number | null;
  holders: string[];
}

/** Spans where two or more workers believed they held the same key at once. */
export const deriveOverlaps = memoOnLog((events: EventLog): HolderSpan[] => {
  const byKey = groupBy(deriveLeases(events), (l) => l.key);
  const out: HolderSpan[] = [];
  for (const [key, leases] of byKey) {
    const points: { at: number; delta: 1 | -1; worker: string }[] = [];
    for (const l of leases) {
      points.push({ at: l.belief.startMs, delta: 1, worker: l.workerId });
      if (l.belief.endMs !== null) points.push({ at: l.belief.endMs, delta: -1, worker: l.workerId });
    }
    // At equal times, let go before taking: touching intervals do not overlap.
    points.sort((a, b) => a.at - b.at || a.delta - b.delta);
    const holding = new Map<string, number>();
    let current: HolderSpan | null = null;
    for (const p of points) {
      holding.set(p.worker, (holding.get(p.worker) ?? 0) + p.delta);
      const holders = [...holding].filter(([, n]) => n > 0).map(([w]) => w);
      if (current && current.holders.join() !== holders.join()) {
        current.endMs = p.at;
        if (current.endMs > current.startMs) out.push(current);
        current = null;
      }
      if (!current && holders.length >= 2) current = { key, startMs: p.at, endMs: null, holders };
    }
    if (current) out.push(current);
  }
  return out.sort((a, b) => a.startMs - b.startMs);
});

/** The most workers that believed they held one key at the same moment. */
export function maxHolders(events: EventLog): number {
  const overlaps = deriveOverlaps(events);
  const anyLease = deriveLeases(events).length > 0;
  return overlaps.reduce((m, o) => Math.max(m, o.holders.length), anyLease ? 1 : 0);
}
