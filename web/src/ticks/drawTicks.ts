// One lane's ticks on its canvas: the same events and the same drawing on the page's main
// thread (ArrivalTicks) and in the tick worker (tickWorker.ts).
import type { RunEvent } from '@racelab/shared';
import { markOf } from '../model/marks.js';

/** The canvas's height in CSS px, as the stylesheet sets it (.tl-arrivals). */
export const TICKS_PX = 10;
const TICK_W = 2;

/** Whether an event draws a mark in its worker's lane (so a tick until then), worked out once per event. */
const drawsMark = new WeakMap<RunEvent, boolean>();
export function isMark(e: RunEvent): boolean {
  let known = drawsMark.get(e);
  if (known === undefined) drawsMark.set(e, (known = e.workerId !== null && markOf(e, e.workerId, undefined) !== null));
  return known;
}

export interface TickCanvas {
  canvas: { width: number; height: number };
  context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  /** Something is drawn on it now. */
  drawnAny: boolean;
}

/**
 * Sizes the canvas for the lane (`pxWidth` CSS px at `ratio` device px each), blanks it and
 * draws each tick at its time in `window`; the colour is asked for only when there is a tick.
 * Returns the first and last seq drawn, or null when none was.
 */
export function drawTicks(
  target: TickCanvas,
  ticks: Iterable<{ seq: number; atMs: number }>,
  window: { startMs: number; endMs: number },
  pxWidth: number,
  ratio: number,
  color: () => string,
): { first: number; last: number } | null {
  const { canvas, context } = target;
  const width = Math.max(1, Math.round(pxWidth * ratio));
  const height = Math.max(1, Math.round(TICKS_PX * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width; // blanks it
    canvas.height = height;
    target.drawnAny = false;
  }
  if (target.drawnAny) context.clearRect(0, 0, width, height);
  target.drawnAny = false;
  const spanMs = Math.max(1e-9, window.endMs - window.startMs);
  let drawn: { first: number; last: number } | null = null;
  for (const t of ticks) {
    if (drawn === null) {
      context.fillStyle = color();
      drawn = { first: t.seq, last: t.seq };
    }
    const x = ((t.atMs - window.startMs) / spanMs) * width;
    context.fillRect(Math.round(x - (TICK_W * ratio) / 2), 0, TICK_W * ratio, height);
    drawn.last = t.seq;
  }
  target.drawnAny = drawn !== null;
  return drawn;
}
