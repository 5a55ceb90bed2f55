// Events that have come from the server and that the timeline has not drawn from its log
// yet. The timeline draws a live run's log in slices, apart from the batches that fill it
// (../store/drawnLog.ts), and while a run streams faster than anyone can follow (thousands of
// events a second) the socket client folds its events into the log at most every CALM_MS;
// meanwhile the timeline draws them each frame as they arrive, as ticks in their lanes
// (ArrivalTicks), without React. They are the log's next events, not a second log: the
// frame that draws them from the log takes them from here (drawnThrough).
import type { RunEvent } from '@racelab/shared';
import { pageTicks, type TickSink } from '../ticks/pageTicks.js';

const NONE: readonly RunEvent[] = [];
/**
 * How long a run's events wait here for the timeline, in the run's ms: a run the timeline does
 * not draw (not on screen) keeps no more than this much of its newest events; the timeline
 * draws a fold within a few frames.
 */
const KEPT_MS = 1000;

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
  /** The run's events that wait for its log (all of them so far: they replace the last held). */
  hold(runId: string, events: readonly RunEvent[]): void;
  /** These events went into the run's log (the held ones among them too). */
  folded(runId: string, events: readonly RunEvent[]): void;
  /** The timeline drew the run's log up to and including this seq. */
  drawnThrough(runId: string, seq: number): void;
  /** Forgets the run's events (it ended where no timeline draws it). */
  clear(runId: string): void;
  /** Called after every change to what `of` returns; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * `ticks`: where the events are drawn off the main thread instead (the tick worker, which
 * takes them from the socket it holds for the page), told what the lanes drew and which runs
 * to forget; asked at each change (the page's starts on first use).
 */
export function createArrivals(ticks: () => TickSink | null = () => null): Arrivals {
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
    hold(runId, events) {
      const r = entry(runId);
      r.held = events;
      changed(r);
    },
    folded(runId, events) {
      const r = entry(runId);
      r.held = NONE;
      if (events.length > 0) r.folded.push(events);
      const keptFromMs = (r.folded.at(-1)?.at(-1)?.atMs ?? 0) - KEPT_MS;
      while (r.folded.length > 1 && r.folded[0]!.at(-1)!.atMs < keptFromMs) r.folded.shift();
      changed(r);
    },
    drawnThrough(runId, seq) {
      ticks()?.drawnThrough(runId, seq);
      const r = runs.get(runId);
      if (!r || r.folded.length === 0 || r.folded[0]![0]!.seq > seq) return;
      r.folded = r.folded.map((f) => f.filter((e) => e.seq > seq)).filter((f) => f.length > 0);
      if (r.folded.length === 0 && r.held.length === 0) runs.delete(runId);
      changed(r);
    },
    clear(runId) {
      ticks()?.forget(runId);
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

/** The page's arrivals: written by its socket, drawn by its timeline (or its tick worker). */
export const arrivals = createArrivals(pageTicks);
