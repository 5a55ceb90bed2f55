// Zoom and pan as pure functions of a time window. The visible window moves at 60 fps
// (wheel, drag, keys) without React; React draws a wider "committed" window around it,
// and the content is slid and stretched into place with two CSS numbers (see placement).

export interface TimeWindow {
  startMs: number;
  endMs: number;
}

/** Narrowest window one can zoom to, in ms. */
export const MIN_SPAN_MS = 0.5;
/** The committed window reaches this many visible spans beyond each side of the view. */
export const COMMIT_MARGIN = 0.5;

export const spanOf = (w: TimeWindow) => w.endMs - w.startMs;

/** Keeps a window inside the bounds, with at least MIN_SPAN_MS and at most the bounds' span. */
export function clampWindow(w: TimeWindow, bounds: TimeWindow): TimeWindow {
  const maxSpan = Math.max(MIN_SPAN_MS, spanOf(bounds));
  const span = Math.min(maxSpan, Math.max(MIN_SPAN_MS, spanOf(w)));
  let start = w.startMs;
  if (start + span > bounds.endMs) start = bounds.endMs - span;
  if (start < bounds.startMs) start = bounds.startMs;
  return { startMs: start, endMs: start + span };
}

/** Zooms by `factor` (> 1 zooms in) keeping `anchorMs` where it is on screen. */
export function zoomAt(w: TimeWindow, factor: number, anchorMs: number, bounds: TimeWindow): TimeWindow {
  const span = spanOf(w);
  const f = factor > 0 && Number.isFinite(factor) ? factor : 1;
  const next = Math.min(Math.max(MIN_SPAN_MS, span / f), Math.max(MIN_SPAN_MS, spanOf(bounds)));
  const frac = span > 0 ? (anchorMs - w.startMs) / span : 0.5;
  const start = anchorMs - frac * next;
  return clampWindow({ startMs: start, endMs: start + next }, bounds);
}

/** Moves the window by `deltaMs` (positive: later). */
export function panBy(w: TimeWindow, deltaMs: number, bounds: TimeWindow): TimeWindow {
  return clampWindow({ startMs: w.startMs + deltaMs, endMs: w.endMs + deltaMs }, bounds);
}

/** The same window, or one that ends at least `marginFrac` of its span after `nowMs`. */
export function follow(w: TimeWindow, nowMs: number, marginFrac = 0.1): TimeWindow {
  const span = spanOf(w);
  const wantEnd = nowMs + span * marginFrac;
  if (wantEnd <= w.endMs) return w;
  return { startMs: wantEnd - span, endMs: wantEnd };
}

/** True when the windows are the same to a thousandth of a millisecond. */
export function sameWindow(a: TimeWindow | null, b: TimeWindow | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a.startMs - b.startMs) < 1e-3 && Math.abs(a.endMs - b.endMs) < 1e-3;
}

/** What React draws for a view: the view widened by COMMIT_MARGIN spans each side, within bounds. */
export function committedFor(view: TimeWindow, bounds: TimeWindow, margin = COMMIT_MARGIN): TimeWindow {
  const span = spanOf(view);
  if (span >= spanOf(bounds) - 1e-6) return { ...bounds };
  return {
    startMs: Math.max(bounds.startMs, view.startMs - span * margin),
    endMs: Math.min(Math.max(bounds.endMs, view.endMs), view.endMs + span * margin),
  };
}

/**
 * True when the committed drawing no longer serves the view: part of the view is outside
 * it, or the zoom changed so much that captions and clusters need laying out again.
 */
export function needsCommit(view: TimeWindow, committed: TimeWindow): boolean {
  const eps = spanOf(view) * 1e-6;
  if (view.startMs < committed.startMs - eps || view.endMs > committed.endMs + eps) return true;
  const ratio = spanOf(committed) / Math.max(1e-9, spanOf(view));
  return ratio < 0.999 || ratio > 2 * (1 + 2 * COMMIT_MARGIN);
}

/**
 * While the view moves, the drawing is only slid and scaled; it must be redrawn before
 * the rest only when a blank edge would show, or it is stretched past `maxStretch`.
 */
export function mustRedrawNow(view: TimeWindow, committed: TimeWindow, maxStretch = 16): boolean {
  const span = spanOf(view);
  const slack = span * 0.02;
  if (view.startMs < committed.startMs - slack || view.endMs > committed.endMs + slack) return true;
  return spanOf(committed) / Math.max(1e-9, span) > maxStretch * (1 + 2 * COMMIT_MARGIN);
}

/** Where the committed content sits in the track, in percent of the track's width. */
export function placement(view: TimeWindow, committed: TimeWindow): { leftPct: number; widthPct: number } {
  const span = Math.max(1e-9, spanOf(view));
  return {
    leftPct: ((committed.startMs - view.startMs) / span) * 100,
    widthPct: (spanOf(committed) / span) * 100,
  };
}

/** The zoom factor a wheel delta asks for: smooth, symmetric in and out. */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-600, Math.min(600, px)) * 0.0018);
}
