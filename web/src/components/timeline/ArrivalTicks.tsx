// A live run's events that arrived and are not drawn by their lane yet
// (../../store/arrivals.ts), drawn in their worker's lane as ticks on a canvas, in the frame
// they arrived, without a React render: each event that will be a mark, at its time, on its
// lane's row of small marks. Once the lane has drawn them as marks and clusters, the canvas is
// blank again. Hidden from assistive technology: the marks themselves carry the names.
// On the main thread, `data-marks` names the first and the last event drawn, as a cluster of
// the lane does.
//
// Nothing here reads the page's layout or style in a frame: the canvas is as tall as the
// stylesheet makes it (TICKS_PX), and the lane's colour is read once.
//
// Where the browser can, the canvas is handed to the tick worker (../../ticks/tickWorker.ts)
// and drawn there, off the page's main thread, with the same ticks at the same places; this
// component then only tells it where the lane's drawing is.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { TimeWindow } from '../../model/viewport.js';
import { arrivals } from '../../store/arrivals.js';
import { useStore } from '../../store/index.js';
import { drawTicks, type TickCanvas } from '../../ticks/drawTicks.js';
import { pageTicks, type TickLane } from '../../ticks/pageTicks.js';

interface Props {
  runId: string;
  workerId: string;
  drawn: TimeWindow;
  /** Width of the drawn window in px. */
  pxWidth: number;
}

/** The lane's colour, read once the lane has its style. */
const laneColor = (canvas: HTMLCanvasElement) => getComputedStyle(canvas).getPropertyValue('--worker').trim() || '#8a93a6';

export function ArrivalTicks(props: Props) {
  return pageTicks() ? <WorkerTicks {...props} /> : <PageTicks {...props} />;
}

/** Drawn by the tick worker: the lane tells it where its drawing is, and whether it is live. */
function WorkerTicks({ runId, workerId, drawn, pxWidth }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const laneRef = useRef<TickLane | null>(null);
  const live = useStore((s) => s.cursor.mode === 'live');
  const placeRef = useRef({ drawn, pxWidth, live });
  useLayoutEffect(() => {
    const canvas = ref.current;
    const ticks = pageTicks();
    if (!canvas || !ticks) return;
    const lane = ticks.lane(canvas, runId, workerId, laneColor(canvas));
    const p = placeRef.current;
    lane.place(p.drawn, p.pxWidth, p.live);
    laneRef.current = lane;
    return () => {
      lane.drop();
      laneRef.current = null;
    };
  }, [runId, workerId]);
  useLayoutEffect(() => {
    placeRef.current = { drawn, pxWidth, live };
    laneRef.current?.place(drawn, pxWidth, live);
  }, [drawn, pxWidth, live]);
  return <canvas ref={ref} className="tl-arrivals" aria-hidden="true" />;
}

/** Drawn on the page's main thread, in the frame the events arrive. */
function PageTicks({ runId, workerId, drawn, pxWidth }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const paintRef = useRef<(() => void) | null>(null);
  const windowRef = useRef({ drawn, pxWidth });
  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const ratio = window.devicePixelRatio || 1;
    let color: string | null = null;
    const target: TickCanvas = { canvas, context, drawnAny: false };
    const paint = () => {
      // Held or replayed, the timeline shows the log at its cursor: nothing newer.
      const ticks = useStore.getState().cursor.mode === 'live' ? arrivals.lane(runId, workerId) : [];
      const { drawn: w, pxWidth: px } = windowRef.current;
      // The colour is read once the lane has its style, the first time there is something to draw.
      const drawn = drawTicks(target, ticks, w, px, ratio, () => (color ??= laneColor(canvas)));
      if (drawn === null) {
        if (canvas.hasAttribute('data-marks')) canvas.removeAttribute('data-marks');
      } else canvas.setAttribute('data-marks', `mark-${drawn.first} mark-${drawn.last}`);
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
