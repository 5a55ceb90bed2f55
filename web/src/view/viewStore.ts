// What moves at 60 fps, kept out of the React store: the visible time window (null: fit
// the runs on screen) and the playhead. The timeline reads it in a frame loop through a
// subscription; React components select only slow-changing facts from it.
import { createStore } from 'zustand/vanilla';
import { clampWindow, type TimeWindow } from '../model/viewport.js';

export interface ViewState {
  /** The visible window; null fits the runs on screen (and grows with a live run). */
  window: TimeWindow | null;
  /** Keep the live edge in view while a run is in progress. */
  follow: boolean;
  /** The moment being inspected (code steps follow it); null: the latest. */
  playheadMs: number | null;
  /** What the runs on screen span (set by the timeline): zoom and pan stay inside it. */
  bounds: TimeWindow;
  setBounds(bounds: TimeWindow): void;
  setWindow(window: TimeWindow | null): void;
  setFollow(follow: boolean): void;
  setPlayhead(ms: number | null): void;
  /** Back to the whole run, following it. */
  reset(): void;
}

export function createViewStore() {
  return createStore<ViewState>()((set) => ({
    window: null,
    follow: true,
    playheadMs: null,
    bounds: { startMs: 0, endMs: 200 },
    // A zoomed window stays inside what the runs span (a finished run may span less than its horizon).
    setBounds: (bounds) => set((s) => ({ bounds, window: s.window ? clampWindow(s.window, bounds) : null })),
    setWindow: (window) => set({ window }),
    setFollow: (follow) => set({ follow }),
    setPlayhead: (playheadMs) => set({ playheadMs }),
    reset: () => set({ window: null, follow: true, playheadMs: null }),
  }));
}

export const viewStore = createViewStore();
export type ViewStore = typeof viewStore;
