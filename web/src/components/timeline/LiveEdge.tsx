// The live edge: a line at "now" that advances every animation frame while the run is in
// progress. It follows the store through a subscription and moves by writing a CSS custom
// property (--live-x) on the timeline body, never by re-rendering React.
import { useEffect, useRef, type RefObject } from 'react';
import { needsNewHorizon, nextHorizon } from '../../model/layout.js';
import { runSummary } from '../../model/runSummary.js';
import { clamp, formatMs, timeToX, type TimeScale } from '../../model/timeScale.js';
import { useStore } from '../../store/index.js';
import type { RunRecord } from '../../store/types.js';

interface Props {
  runId: string;
  scale: TimeScale;
  body: RefObject<HTMLElement | null>;
}

/** Run time "now" on this page's clock, or the run's end once it is over. */
function nowOf(run: RunRecord): { nowMs: number; live: boolean } {
  const summary = runSummary(run.events);
  if (summary.endMs !== null) return { nowMs: summary.endMs, live: false };
  if (run.lost || run.clientOriginMs === null) return { nowMs: summary.lastMs, live: false };
  return { nowMs: Math.max(summary.lastMs, performance.now() - run.clientOriginMs), live: true };
}

export function LiveEdge({ runId, scale, body }: Props) {
  const line = useRef<HTMLDivElement>(null);
  const label = useRef<HTMLSpanElement>(null);
  const scaleRef = useRef(scale);
  scaleRef.current = scale;

  useEffect(() => {
    let frame = 0;
    let run = useStore.getState().runs[runId];
    const draw = () => {
      frame = 0;
      if (!run) return;
      const { nowMs, live } = nowOf(run);
      const x = clamp(timeToX(nowMs, scaleRef.current), 0, 100);
      body.current?.style.setProperty('--live-x', `${x}%`);
      if (line.current) {
        line.current.style.left = `${x}%`;
        line.current.classList.toggle('live', live);
      }
      if (label.current) label.current.textContent = formatMs(nowMs);
      if (!live) return;
      if (needsNewHorizon(nowMs, scaleRef.current.endMs)) useStore.getState().extendHorizon(runId, nextHorizon(nowMs));
      frame = requestAnimationFrame(draw);
    };
    const unsubscribe = useStore.subscribe((state) => {
      const next = state.runs[runId];
      if (next === run) return;
      run = next;
      if (frame === 0) frame = requestAnimationFrame(draw);
    });
    draw();
    return () => {
      unsubscribe();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [runId, body]);

  // A new domain (horizon or end) moves the edge at once, not on the next frame.
  useEffect(() => {
    const run = useStore.getState().runs[runId];
    if (!run) return;
    const x = clamp(timeToX(nowOf(run).nowMs, scale), 0, 100);
    body.current?.style.setProperty('--live-x', `${x}%`);
    if (line.current) line.current.style.left = `${x}%`;
  }, [scale, runId, body]);

  return (
    <div className="live-edge" ref={line} aria-hidden="true">
      <span className="live-label" ref={label} />
    </div>
  );
}
