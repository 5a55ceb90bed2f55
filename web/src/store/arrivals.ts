// Events that have come from the server but are not in their run's log yet. While a run
// streams faster than anyone can follow (thousands of events a second), the socket client
// folds its events into the log, and so into every render made from it, at most every
// CALM_MS; meanwhile the timeline draws them each frame as they arrive, as ticks in their
// lanes (ArrivalTicks), without React. They are the log's next events, not a second log:
// once folded in, they leave here in the same frame.
import type { RunEvent } from '@racelab/shared';

const NONE: readonly RunEvent[] = [];

export interface Arrivals {
  /** The run's events that arrived and are not in its log yet, in order. */
  of(runId: string): readonly RunEvent[];
  set(runId: string, events: readonly RunEvent[]): void;
  clear(runId: string): void;
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createArrivals(): Arrivals {
  const pending = new Map<string, readonly RunEvent[]>();
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  return {
    of: (runId) => pending.get(runId) ?? NONE,
    set(runId, events) {
      pending.set(runId, events);
      changed();
    },
    clear(runId) {
      if (pending.delete(runId)) changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's arrivals: written by its socket, drawn by its timeline. */
export const arrivals = createArrivals();
