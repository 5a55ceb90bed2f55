// Level of detail: what a lane draws when it holds more shapes than fit on the screen.
// Shapes outside the drawn window are left out; past a budget, intervals closer than a
// few pixels are drawn as one group ("37 leases") and marks as one cluster ("12 marks").
// A normal run stays under the budgets and is drawn shape by shape.
import type { TimeWindow } from './viewport.js';

export interface Interval {
  id: string;
  startMs: number;
  /** null: still open (drawn to the live edge). */
  endMs: number | null;
}

export interface Group {
  kind: 'group';
  id: string;
  count: number;
  startMs: number;
  endMs: number;
}

export type Thinned<T> = { kind: 'one'; item: T } | Group;

/** Most intervals of one kind a lane draws one by one in the drawn window. */
export const INTERVAL_BUDGET = 120;
/** Most marks a lane draws one by one in the drawn window. */
export const MARK_BUDGET = 160;
/**
 * Fewest marks from which a lane in progress may be judged by its rate (below it, a few
 * marks close together say nothing about the rest of the run; a seed scenario's lane holds
 * about a dozen). At a thousand marks a second a lane reaches it in 20 ms.
 */
export const RATE_FLOOR = 20;
/** Intervals closer than this, in px, join a group once past the budget. */
export const GROUP_GAP_PX = 4;

/**
 * The items in time order: the list itself when it is already so (a lane's shapes come in
 * the order they happened, and a live lane is thinned again every frame), else a sorted copy.
 */
function byTime<T>(items: readonly T[], at: (item: T) => number): readonly T[] {
  for (let i = 1; i < items.length; i++) if (at(items[i]!) < at(items[i - 1]!)) return [...items].sort((a, b) => at(a) - at(b));
  return items;
}

/** The intervals that touch the window (open ones when they start before its end). */
export function cullIntervals<T extends Interval>(items: readonly T[], w: TimeWindow): T[] {
  return items.filter((i) => i.startMs <= w.endMs && (i.endMs === null || i.endMs >= w.startMs));
}

/** The intervals to draw: each one, or, past the budget, groups of near neighbours. */
export function thinIntervals<T extends Interval>(
  items: readonly T[],
  w: TimeWindow,
  pxWidth: number,
  budget = INTERVAL_BUDGET,
): Thinned<T>[] {
  const shown = cullIntervals(items, w);
  if (shown.length <= budget) return shown.map((item) => ({ kind: 'one', item }));
  const gapMs = (GROUP_GAP_PX / Math.max(1, pxWidth)) * (w.endMs - w.startMs);
  const sorted = byTime(shown, (i) => i.startMs);
  const out: Thinned<T>[] = [];
  let run: T[] = [];
  let runEnd = Number.NEGATIVE_INFINITY;
  const close = () => {
    if (run.length === 1) out.push({ kind: 'one', item: run[0]! });
    else if (run.length > 1)
      out.push({ kind: 'group', id: `group-${run[0]!.id}`, count: run.length, startMs: run[0]!.startMs, endMs: runEnd });
    run = [];
    runEnd = Number.NEGATIVE_INFINITY;
  };
  for (const item of sorted) {
    if (item.endMs === null) {
      out.push({ kind: 'one', item }); // an open interval is the live one: always itself
      continue;
    }
    if (run.length > 0 && item.startMs - runEnd > gapMs) close();
    run.push(item);
    runEnd = Math.max(runEnd, item.endMs);
  }
  close();
  return out;
}

/** True when one of the shapes is still open: drawn to the live edge, which moves. */
export function anyOpen<T extends Interval>(shown: readonly Thinned<T>[]): boolean {
  return shown.some((t) => t.kind === 'one' && t.item.endMs === null);
}

export interface Instant {
  id: string;
  atMs: number;
}

export interface MarkCluster<T extends Instant> {
  id: string;
  items: T[];
  startMs: number;
  endMs: number;
}

/** The instants inside the window, widened by `slackMs` on each side. */
export function cullInstants<T extends Instant>(items: readonly T[], w: TimeWindow, slackMs = 0): T[] {
  return items.filter((i) => i.atMs >= w.startMs - slackMs && i.atMs <= w.endMs + slackMs);
}

/**
 * The marks a window will hold: those it holds, or, while the run is in progress (`reachMs`:
 * where its facts reach so far), as many as the rate so far brings by the window's end, or
 * by `growsToMs` when the window is the run's whole domain, which grows there as the run
 * goes on. A lane that will pass the budget is drawn in clusters from its first marks,
 * instead of drawing each one and replacing them all with clusters a moment later (when
 * the marks come thick, or when the domain grows and the same marks need less room). A
 * finished run (`reachMs` null) counts what it holds.
 */
export function expectedInstants(count: number, w: TimeWindow, reachMs: number | null, growsToMs: number | null = null): number {
  const endMs = Math.max(w.endMs, growsToMs ?? w.endMs);
  if (reachMs === null || count < RATE_FLOOR || reachMs >= endMs) return count;
  const seenMs = reachMs - w.startMs;
  return seenMs > 0 ? (count * (endMs - w.startMs)) / seenMs : count;
}

/**
 * Past the budget (by what the window holds, or will hold at its rate: `reachMs`, see
 * expectedInstants), instants closer than `minPx` become clusters; null when they all fit
 * (the caller then lays them out one by one).
 */
export function clusterInstants<T extends Instant>(
  items: readonly T[],
  w: TimeWindow,
  pxWidth: number,
  minPx: number,
  budget = MARK_BUDGET,
  reachMs: number | null = null,
  growsToMs: number | null = null,
): MarkCluster<T>[] | null {
  if (expectedInstants(items.length, w, reachMs, growsToMs) <= budget) return null;
  const minMs = (minPx / Math.max(1, pxWidth)) * (w.endMs - w.startMs);
  const sorted = byTime(items, (i) => i.atMs);
  const out: MarkCluster<T>[] = [];
  let current: MarkCluster<T> | null = null;
  for (const item of sorted) {
    if (current && item.atMs - current.startMs < minMs) {
      current.items.push(item);
      current.endMs = item.atMs;
      continue;
    }
    current = { id: `cluster-${item.id}`, items: [item], startMs: item.atMs, endMs: item.atMs };
    out.push(current);
  }
  return out;
}
