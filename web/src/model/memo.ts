// Memoisation on the identity of an event log: the store replaces the array on every
// append, so a derived value is computed once per version of the log and shared by
// every component that asks for it (a stable reference, safe for zustand v5 and React).
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
