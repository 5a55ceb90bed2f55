// A live run's events that arrived and are not drawn by their lane yet
// (../../store/arrivals.ts), drawn in their worker's lane as ticks on a canvas, in the frame
// they arrived, without a React render: each event that will be a mark, at its time, on its
// lane's row of small marks. Once the lane has drawn them as marks and clusters, the canvas is
// blank again. Hidden from assistive technology: the marks themselves carry the names.
// `data-marks` names the first and the last event drawn, as a cluster of the lane does.
//
// Nothing here reads the page's layout or style in a frame: the canvas is as tall as the
// stylesheet makes it (TICKS_PX), and the lane's colour is read once, when it first draws.
import type { RunEvent } from '@racelab/shared';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { markOf } from '../../model/marks.js';
import type { TimeWindow } from '../../model/viewport.js';
import { arrivals } from '../../store/arrivals.js';
import { useStore } from '../../store/index.js';

const TICK_W = 2;
/** The canvas's height in CSS px, as the stylesheet sets it (.tl-arrivals). */
const TICKS_PX = 10;

/** Whether an event draws a mark, worked out once per event (arrivals are drawn again with every batch). */
const drawsMark = new WeakMap<RunEvent, boolean>();
function isMark(e: RunEvent): boolean {
  let known = drawsMark.get(e);
  if (known === undefined) drawsMark.set(e, (known = e.workerId !== null && markOf(e, e.workerId, undefined) !== null));
  return known;
}

interface Props {
  runId: string;
  workerId: string;
  drawn: TimeWindow;
  /** Width of the drawn window in px. */
  pxWidth: number;
}

export function ArrivalTicks({ runId, workerId, drawn, pxWidth }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const paintRef = useRef<(() => void) | null>(null);
  const windowRef = useRef({ drawn, pxWidth });
  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const ratio = window.devicePixelRatio || 1;
    let color: string | null = null;
    let drawnAny = false;
    const paint = () => {
      // Held or replayed, the timeline shows the log at its cursor: nothing newer.
      const events = useStore.getState().cursor.mode === 'live' ? arrivals.of(runId) : [];
      const { drawn: w, pxWidth: px } = windowRef.current;
      const width = Math.max(1, Math.round(px * ratio));
      const height = Math.max(1, Math.round(TICKS_PX * ratio));
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width; // blanks it
        canvas.height = height;
        drawnAny = false;
      }
      if (drawnAny) context.clearRect(0, 0, width, height);
      drawnAny = false;
      const spanMs = Math.max(1e-9, w.endMs - w.startMs);
      let first: number | null = null;
      let last: number | null = null;
      for (const e of events) {
        if (e.workerId !== workerId || !isMark(e)) continue;
        if (first === null) {
          // Read once the lane has its style, the first time there is something to draw.
          color ??= getComputedStyle(canvas).getPropertyValue('--worker').trim() || '#8a93a6';
          context.fillStyle = color;
        }
        const x = ((e.atMs - w.startMs) / spanMs) * width;
        context.fillRect(Math.round(x - (TICK_W * ratio) / 2), 0, TICK_W * ratio, height);
        first ??= e.seq;
        last = e.seq;
        drawnAny = true;
      }
      if (first === null) {
        if (canvas.hasAttribute('data-marks')) canvas.removeAttribute('data-marks');
      } else canvas.setAttribute('data-marks', `mark-${first} mark-${last}`);
    };
    paintRef.current = paint;
    paint();
    const unsubscribe = arrivals.subscribe(paint);
    return () => {
      unsubscribe();
      paintRef.current = null;
    };
  }, [runId, workerId]);
  // A new window (the axis grew, a zoom): the same ticks at their new places, before it is painted.
  useLayoutEffect(() => {
    windowRef.current = { drawn, pxWidth };
    paintRef.current?.();
  }, [drawn, pxWidth]);
  return <canvas ref={ref} className="tl-arrivals" aria-hidden="true" />;
}
