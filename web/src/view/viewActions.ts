// Zoom, pan and fit on the view store, and the playhead (the store's cursor held at a
// moment), for buttons, keys, wheel and drag.
// Button and key zooms glide (framer-motion drives the window, no React render per frame).
import { animate } from 'framer-motion';
import { LIVE } from '../model/cursor.js';
import { clampWindow, panBy, spanOf, zoomAt, type TimeWindow } from '../model/viewport.js';
import { useStore, type AppStore } from '../store/index.js';
import { viewStore } from './viewStore.js';

/** The visible window: the zoomed one, else the whole of the runs on screen. */
export function currentView(s = viewStore.getState()): TimeWindow {
  return s.window ?? s.bounds;
}

let glide: { stop(): void } | null = null;
/** Where the glide in progress is going: a key pressed again goes on from there. */
let target: TimeWindow | null = null;

function stopGlide(): void {
  glide?.stop();
  glide = null;
  target = null;
}

/** The window the next step starts from: the glide's target, else the visible window. */
function base(s = viewStore.getState()): TimeWindow {
  return target ?? currentView(s);
}

/** Moves the window to `to` over a short glide; `fit` ends on the fitted (null) window. */
export function glideTo(to: TimeWindow, fit = false, reducedMotion = false): void {
  const from = currentView();
  stopGlide();
  if (reducedMotion) {
    viewStore.getState().setWindow(fit ? null : to);
    return;
  }
  target = to;
  glide = animate(0, 1, {
    duration: 0.22,
    ease: 'easeOut',
    onUpdate: (p) =>
      viewStore
        .getState()
        .setWindow({ startMs: from.startMs + (to.startMs - from.startMs) * p, endMs: from.endMs + (to.endMs - from.endMs) * p }),
    onComplete: () => {
      glide = null;
      target = null;
      if (fit) viewStore.getState().setWindow(null);
    },
  });
}

const prefersReduced = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Zooms in (factor > 1) or out around `anchorMs` (the middle by default), gliding. */
export function zoomBy(factor: number, anchorMs?: number): void {
  const s = viewStore.getState();
  const view = base(s);
  const to = zoomAt(view, factor, anchorMs ?? (view.startMs + view.endMs) / 2, s.bounds);
  const whole = spanOf(to) >= spanOf(s.bounds) - 1e-6;
  glideTo(to, whole, prefersReduced());
}

/** Zooms at once (wheel): no glide, the wheel is already smooth. */
export function zoomNow(factor: number, anchorMs: number): void {
  stopGlide();
  const s = viewStore.getState();
  const to = zoomAt(currentView(s), factor, anchorMs, s.bounds);
  s.setWindow(spanOf(to) >= spanOf(s.bounds) - 1e-6 ? null : to);
}

/** Pans by a fraction of the visible span (positive: later). */
export function panFraction(fraction: number, glideIt = true): void {
  const s = viewStore.getState();
  const view = base(s);
  if (s.window === null && target === null) return; // the whole run is in view: nothing to pan to
  const to = panBy(view, spanOf(view) * fraction, s.bounds);
  if (fraction < 0) s.setFollow(false);
  if (glideIt) glideTo(to, false, prefersReduced());
  else {
    stopGlide();
    s.setWindow(to);
  }
}

/** Pans by a number of ms (drag). */
export function panMs(deltaMs: number): void {
  stopGlide();
  const s = viewStore.getState();
  if (s.window === null) return;
  if (deltaMs < 0) s.setFollow(false);
  s.setWindow(panBy(s.window, deltaMs, s.bounds));
}

/** The whole run again, following it. */
export function fitView(): void {
  viewStore.getState().setFollow(true);
  glideTo(viewStore.getState().bounds, true, prefersReduced());
}

/** Holds the cursor at `ms` (null: back to live), panning so that it is in view. */
export function setPlayhead(ms: number | null, store: AppStore = useStore): void {
  store.getState().setCursor(ms === null ? LIVE : { mode: 'held', atMs: ms });
  const s = viewStore.getState();
  if (ms === null || s.window === null) return;
  const view = s.window;
  if (ms < view.startMs || ms > view.endMs) {
    const half = spanOf(view) / 2;
    s.setFollow(false);
    glideTo(clampWindow({ startMs: ms - half, endMs: ms + half }, s.bounds), false, prefersReduced());
  }
}
