// Memoisation on the identity of an event log: the store replaces the array on every
// append, so a derived value is computed once per version of the log and shared by
// every component that asks for it (a stable reference, safe for zustand v5 and React).
// Derivations that walk the whole log are folds (foldOnLog, below): a version that extends
// the last one folds only its new events.
import type { RunEvent } from '@racelab/shared';

export type EventLog = readonly RunEvent[];

export function memoOnLog<T>(derive: (events: EventLog) => T): (events: EventLog) => T {
  const cache = new WeakMap<EventLog, T>();
  return (events) => {
    let value = cache.get(events);
    if (value === undefined && !cache.has(events)) {
      value = derive(events);
      cache.set(events, value);
    }
    return value as T;
  };
}

/** The same, for a derivation that also reads a second object (e.g. the scenario manifest). */
export function memoOnLogAnd<A extends object, T>(derive: (events: EventLog, a: A) => T): (events: EventLog, a: A) => T {
  const cache = new WeakMap<EventLog, WeakMap<A, T>>();
  return (events, a) => {
    let inner = cache.get(events);
    if (!inner) cache.set(events, (inner = new WeakMap()));
    if (inner.has(a)) return inner.get(a) as T;
    const value = derive(events, a);
    inner.set(a, value);
    return value;
  };
}

/** The events in the order the server numbered them (the log is normally already so). */
export function inOrder(events: EventLog): EventLog {
  for (let i = 1; i < events.length; i++) {
    if (events[i]!.seq < events[i - 1]!.seq) return [...events].sort((a, b) => a.seq - b.seq);
  }
  return events;
}

/** A derivation as a fold over the log, event by event in seq order. */
export interface LogFold<S, T> {
  init(): S;
  /** Folds one event into the state (mutating it). */
  step(state: S, event: RunEvent, events: EventLog): void;
  /** The value of a version of the log: must not share what later steps mutate. */
  finish(state: S, events: EventLog): T;
}

/** Logs folded recently whose next versions may continue from where they stopped. */
const LINEAGES_KEPT = 4;

/**
 * memoOnLog for a fold, and incremental: the store appends to a log by copying it and
 * pushing the new events, so a version whose first events are the ones a fold stopped at is
 * folded on from there. A live run then costs each frame its new events (plus `finish`),
 * not its whole log again. A log that is not such an extension, or whose new events come
 * out of order, is folded from its start.
 */
export function foldOnLog<S, T>(fold: LogFold<S, T>): (events: EventLog) => T {
  const cache = new WeakMap<EventLog, T>();
  let lineages: { events: EventLog; folded: number; lastSeq: number; state: S }[] = [];
  const extendsLineage = (events: EventLog, l: (typeof lineages)[number]) =>
    l.folded > 0 && events.length >= l.folded && events[0] === l.events[0] && events[l.folded - 1] === l.events[l.folded - 1];
  return (events) => {
    if (cache.has(events)) return cache.get(events) as T;
    let lineage = lineages.find((l) => extendsLineage(events, l));
    if (lineage) {
      for (let i = lineage.folded; i < events.length; i++) {
        if (events[i]!.seq <= lineage.lastSeq) {
          lineage = undefined; // out of order (or a fold that threw half way): start over
          break;
        }
        lineage.lastSeq = events[i]!.seq; // before the step: a step that throws is not folded on again
        fold.step(lineage.state, events[i]!, events);
      }
    }
    let state: S;
    if (lineage) {
      lineage.events = events;
      lineage.folded = events.length;
      state = lineage.state;
    } else {
      state = fold.init();
      const ordered = inOrder(events);
      for (const e of ordered) fold.step(state, e, events);
      lineages = lineages.filter((l) => !extendsLineage(events, l));
      // Only a log already in order can be continued: its positions are the fold's.
      if (ordered === events && events.length > 0)
        lineages = [{ events, folded: events.length, lastSeq: events[events.length - 1]!.seq, state }, ...lineages].slice(0, LINEAGES_KEPT);
    }
    const value = fold.finish(state, events);
    cache.set(events, value);
    return value;
  };
}
