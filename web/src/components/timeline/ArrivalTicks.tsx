// The events of a fast run that arrived and are not in its log yet (../../store/arrivals.ts),
// drawn in their worker's lane as ticks on a canvas, in the frame they arrived, without a
// React render: each event that will be a mark, at its time, on its lane's row of small
// marks. Within CALM_MS they are in the log and drawn as marks and clusters, and the canvas
// is blank again. Hidden from assistive technology: the marks themselves carry the names.
// `data-marks` names the first and the last event drawn, as a cluster of the lane does.
import type { RunEvent } from '@racelab/shared';
import { useEffect, useRef } from 'react';
import { markOf } from '../../model/marks.js';
import type { TimeWindow } from '../../model/viewport.js';
import { arrivals } from '../../store/arrivals.js';
import { useStore } from '../../store/index.js';

const TICK_W = 2;

/** Whether an event draws a mark, worked out once per event (a fast run's arrivals are drawn again every frame). */
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
  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(pxWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    // Read once, while the lane's style is fresh: a read in each frame would make the page work out its style then.
    const color = getComputedStyle(canvas).getPropertyValue('--worker').trim() || '#8a93a6';
    const spanMs = Math.max(1e-9, drawn.endMs - drawn.startMs);
    let drawnAny = false;
    const paint = () => {
      // Held or replayed, the timeline shows the log at its cursor: nothing newer.
      const events = useStore.getState().cursor.mode === 'live' ? arrivals.of(runId) : [];
      let first: number | null = null;
      let last: number | null = null;
      if (drawnAny) context.clearRect(0, 0, width, height);
      drawnAny = false;
      context.fillStyle = color;
      for (const e of events) {
        if (e.workerId !== workerId || !isMark(e)) continue;
        const x = ((e.atMs - drawn.startMs) / spanMs) * width;
        context.fillRect(Math.round(x - (TICK_W * ratio) / 2), 0, TICK_W * ratio, height);
        first ??= e.seq;
        last = e.seq;
        drawnAny = true;
      }
      if (first === null) canvas.removeAttribute('data-marks');
      else canvas.setAttribute('data-marks', `mark-${first} mark-${last}`);
    };
    paint();
    return arrivals.subscribe(paint);
  }, [runId, workerId, drawn, pxWidth]);
  return <canvas ref={ref} className="tl-arrivals" aria-hidden="true" />;
}
