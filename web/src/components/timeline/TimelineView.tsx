// The runs on screen on one time axis, zoomable and pannable. React draws a "drawn"
// window (the view plus a margin); the frame loop slides and stretches it into the view
// with two CSS numbers, so a wheel, a drag or a glide costs no React render until the
// view leaves the drawing or comes to rest.
import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { domainEndMs } from '../../model/cursor.js';
import { spanOf, type TimeWindow } from '../../model/viewport.js';
import { useDrawnValue } from '../../store/drawnLog.js';
import { useStore } from '../../store/index.js';
import { selectShownKey, selectShownLog } from '../../store/selectors.js';
import { viewStore } from '../../view/viewStore.js';
import { ENTRANCE_BUDGET_EVENTS, EntranceContext } from './Shape.js';
import { RunSection } from './RunSection.js';
import { SelectedMarkStyle, useMarkSelection } from './SelectedMark.js';
import { TooltipHost } from './Tooltip.js';
import { useElementWidth } from './useElementWidth.js';
import { useFocusInView } from './useFocusInView.js';
import { useRovingMarks } from './useRovingMarks.js';
import { usePointerZoom } from './usePointerZoom.js';
import { useTimelineFrame, type FrameTargets } from './useTimelineFrame.js';

/** Where the axis of the runs on screen ends at a page time: 0 to the latest domain end. */
function timelineEndMs(ids: readonly string[], pageNowMs: number, trackPx: number): number {
  const { runs, cursor } = useStore.getState();
  let end = 0;
  for (const id of ids) {
    const run = runs[id];
    if (run) end = Math.max(end, domainEndMs(run, cursor, pageNowMs, trackPx));
  }
  return Math.max(1, end);
}

export function TimelineView() {
  const shownKey = useStore(selectShownKey);
  const ids = useMemo(() => (shownKey ? shownKey.split(' ') : []), [shownKey]);
  const axis = useRef<HTMLDivElement>(null);
  const trackPx = useElementWidth(axis);
  // The events shown at the cursor (a number: a render per batch of them, not per frame),
  // drawn apart from the batch's update as the lanes are (../../store/drawnLog.ts).
  const events = useDrawnValue(`count ${shownKey}`, (s) => ids.reduce((n, id) => n + selectShownLog(s, id).length, 0));
  // Another mode may mean another domain (a held cursor keeps the whole run's axis).
  useStore((s) => s.cursor.mode);
  // Drawn again when the frame loop sees the domain grow with the clock: in slices, as a
  // transition (every lane is drawn again), while the frame loop stretches the last drawing.
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const redraw = useCallback(() => startTransition(bump), []);
  // The room after a run's end is laid out for the track's width, in steps of 100 px.
  const roomPx = Math.round(trackPx / 100) * 100;
  const domainEndAt = useCallback((pageNowMs: number) => timelineEndMs(ids, pageNowMs, roomPx), [ids, roomPx]);
  // The domain at this render's clock; the frame loop asks for a render when it has moved on.
  // eslint-disable-next-line react-hooks/purity
  const endMs = domainEndAt(performance.now());
  const bounds = useMemo(() => ({ startMs: 0, endMs }), [endMs]);
  const body = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const live = useRef<HTMLDivElement>(null);
  const liveLabel = useRef<HTMLSpanElement>(null);
  const playhead = useRef<HTMLDivElement>(null);
  const playheadLabel = useRef<HTMLSpanElement>(null);
  const targets = useMemo<FrameTargets>(() => ({ body, axis, grid, live, liveLabel, playhead, playheadLabel }), []);

  // The drawn window while zoomed in, with its width in px; null: the whole of the runs.
  const [zoomed, setZoomed] = useState<{ drawn: TimeWindow; px: number } | null>(null);
  const trackPxRef = useRef(trackPx);
  // eslint-disable-next-line react-hooks/refs -- the latest width, for `commit` below
  trackPxRef.current = trackPx;
  const commit = useMemo(
    () => (drawn: TimeWindow) => {
      const view = viewStore.getState().window;
      if (view === null) setZoomed(null);
      else setZoomed({ drawn, px: (trackPxRef.current * spanOf(drawn)) / Math.max(1e-9, spanOf(view)) });
    },
    [],
  );

  // A new run on screen starts whole; zoom and pan stay within what the runs span.
  useLayoutEffect(() => {
    viewStore.getState().reset();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- unzoomed before the new runs are painted
    setZoomed(null);
  }, [shownKey]);
  useLayoutEffect(() => viewStore.getState().setBounds(bounds), [bounds]);
  useEffect(() => () => viewStore.getState().reset(), []);

  const drawn = zoomed?.drawn ?? bounds;
  const pxWidth = zoomed?.px ?? trackPx;
  useTimelineFrame(targets, ids, drawn, trackPx, commit, events, domainEndAt, redraw);
  usePointerZoom(body, axis);
  useFocusInView(body, axis);
  useRovingMarks(body);
  useMarkSelection(body);

  return (
    <EntranceContext.Provider value={events < ENTRANCE_BUDGET_EVENTS}>
      <TooltipHost>
        <div
          className="tl-body"
          ref={body}
          tabIndex={0}
          role="group"
          aria-label="Marks of the runs: arrow keys move between marks, Home and End to a lane's first and last"
        >
          <div className="tl-overlay" aria-hidden="true">
            <div className="grid" ref={grid} />
            <div className="live-edge" ref={live}>
              <span className="live-label" ref={liveLabel} />
            </div>
            <div className="playhead" ref={playhead}>
              <span className="playhead-label" ref={playheadLabel} />
            </div>
          </div>
          <div className="tl-row axis-row">
            <div className="tl-label">
              <span className="axis-unit">time since start</span>
            </div>
            <div className="tl-track axis" ref={axis} role="img" aria-label="Time axis" title="Click to put the playhead here" />
          </div>
          <SelectedMarkStyle />
          {ids.map((id) => (
            <RunSection key={id} runId={id} drawn={drawn} pxWidth={pxWidth} withHeader={ids.length > 1} />
          ))}
        </div>
      </TooltipHost>
    </EntranceContext.Provider>
  );
}
