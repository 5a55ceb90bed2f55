// Events that have come from the server and that the timeline has not drawn from its log
// yet. While a run streams faster than anyone can follow (thousands of events a second), the
// socket client folds its events into the log, and so into every render made from it, at
// most every CALM_MS, and those renders are drawn apart from the fold (../store/drawnLog.ts);
// meanwhile the timeline draws the events each frame as they arrive, as ticks in their lanes
// (ArrivalTicks), without React. They are the log's next events, not a second log: the
// frame that draws them from the log takes them from here (drawnThrough).
import type { RunEvent } from '@racelab/shared';

const NONE: readonly RunEvent[] = [];
/**
 * How many folds' events wait here for the timeline: a run the timeline does not draw (not on
 * screen) keeps no more than these, and the timeline draws a fold well within CALM_MS.
 */
const FOLDS_KEPT = 2;

interface RunArrivals {
  /** Events in the log, by fold, oldest first, that the timeline has not drawn yet. */
  folded: (readonly RunEvent[])[];
  /** Events not in the log yet. */
  held: readonly RunEvent[];
  /** folded and held in one list, made when asked for. */
  all: readonly RunEvent[] | null;
}

export interface Arrivals {
  /** The run's events, in order, that arrived and are not drawn from its log yet. */
  of(runId: string): readonly RunEvent[];
  /** Whether the run has events here. */
  has(runId: string): boolean;
  /** The run's events that wait for its log (all of them so far: they replace the last held). */
  hold(runId: string, events: readonly RunEvent[]): void;
  /** These events went into the run's log (the held ones among them too). */
  folded(runId: string, events: readonly RunEvent[]): void;
  /** The timeline drew the run's log up to and including this seq. */
  drawnThrough(runId: string, seq: number): void;
  clear(runId: string): void;
  /** Called after every change to what `of` returns; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createArrivals(): Arrivals {
  const runs = new Map<string, RunArrivals>();
  const listeners = new Set<() => void>();
  const changed = (r: RunArrivals) => {
    r.all = null;
    listeners.forEach((l) => l());
  };
  const entry = (runId: string) => {
    let r = runs.get(runId);
    if (!r) runs.set(runId, (r = { folded: [], held: NONE, all: null }));
    return r;
  };
  return {
    of(runId) {
      const r = runs.get(runId);
      if (!r) return NONE;
      r.all ??= r.folded.length === 0 ? r.held : [...r.folded.flat(), ...r.held];
      return r.all;
    },
    has: (runId) => runs.has(runId),
    hold(runId, events) {
      const r = entry(runId);
      r.held = events;
      changed(r);
    },
    folded(runId, events) {
      const r = entry(runId);
      r.held = NONE;
      if (events.length > 0) r.folded.push(events);
      if (r.folded.length > FOLDS_KEPT) r.folded.shift();
      changed(r);
    },
    drawnThrough(runId, seq) {
      const r = runs.get(runId);
      if (!r || r.folded.length === 0 || r.folded[0]![0]!.seq > seq) return;
      r.folded = r.folded.map((f) => f.filter((e) => e.seq > seq)).filter((f) => f.length > 0);
      if (r.folded.length === 0 && r.held.length === 0) runs.delete(runId);
      changed(r);
    },
    clear(runId) {
      const r = runs.get(runId);
      if (!r) return;
      runs.delete(runId);
      changed(r);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's arrivals: written by its socket, drawn by its timeline. */
export const arrivals = createArrivals();
