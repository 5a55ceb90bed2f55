// What moves at 60 fps, kept out of the React store: the visible time window (null: fit
// the runs on screen). The timeline reads it in a frame loop through a subscription; React
// components select only slow-changing facts from it. Which moment is shown (the cursor)
// is not the view's: it lives in the store, beside the logs.
import { createStore } from 'zustand/vanilla';
import { clampWindow, type TimeWindow } from '../model/viewport.js';

export interface ViewState {
  /** The visible window; null fits the runs on screen (and grows with a live run). */
  window: TimeWindow | null;
  /** Keep the live edge in view while a run is in progress. */
  follow: boolean;
  /** What the runs on screen span (set by the timeline): zoom and pan stay inside it. */
  bounds: TimeWindow;
  setBounds(bounds: TimeWindow): void;
  setWindow(window: TimeWindow | null): void;
  setFollow(follow: boolean): void;
  /** Back to the whole run, following it. */
  reset(): void;
}

export function createViewStore() {
  return createStore<ViewState>()((set) => ({
    window: null,
    follow: true,
    bounds: { startMs: 0, endMs: 200 },
    // A zoomed window stays inside what the runs span (a finished run may span less than its horizon).
    setBounds: (bounds) => set((s) => ({ bounds, window: s.window ? clampWindow(s.window, bounds) : null })),
    setWindow: (window) => set({ window }),
    setFollow: (follow) => set({ follow }),
    reset: () => set({ window: null, follow: true }),
  }));
}

export const viewStore = createViewStore();
export type ViewStore = typeof viewStore;
