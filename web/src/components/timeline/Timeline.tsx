// The run on one time axis: a lane per worker, the holders row, and what Redis held.
import { useMemo, useRef } from 'react';
import { deriveOverlaps } from '../../model/holders.js';
import { deriveLanes } from '../../model/lanes.js';
import { domainFor, MIN_DOMAIN_MS } from '../../model/layout.js';
import { runSummary } from '../../model/runSummary.js';
import { deriveStoreLanes } from '../../model/storeLanes.js';
import { useStore } from '../../store/index.js';
import { selectCurrentEvents } from '../../store/selectors.js';
import { Legend, usedShapes } from './Legend.js';
import { LiveEdge } from './LiveEdge.js';
import { OverlapBands, OverlapRow } from './OverlapRow.js';
import { StoreLane } from './StoreLane.js';
import { GridLines, TimeAxis } from './TimeAxis.js';
import { TooltipHost } from './Tooltip.js';
import { useElementWidth } from './useElementWidth.js';
import { WorkerLane } from './WorkerLane.js';

export function Timeline() {
  const events = useStore(selectCurrentEvents);
  const runId = useStore((s) => s.currentRunId);
  const horizonMs = useStore((s) => (s.currentRunId ? s.runs[s.currentRunId]?.horizonMs : undefined) ?? MIN_DOMAIN_MS);
  const pending = useStore((s) => s.pending !== null);
  const body = useRef<HTMLDivElement>(null);
  const axisTrack = useRef<HTMLDivElement>(null);
  const trackPx = useElementWidth(axisTrack);

  const summary = runSummary(events);
  const lanes = deriveLanes(events);
  const storeLanes = deriveStoreLanes(events);
  const overlaps = deriveOverlaps(events);
  const scale = useMemo(() => domainFor(summary, horizonMs), [summary, horizonMs]);
  const hasLeases = lanes.some((l) => l.leases.length > 0);
  const show = !pending && runId !== null && summary.phase !== 'empty';
  const used = useMemo(() => (show ? usedShapes(lanes, overlaps.length) : null), [show, lanes, overlaps]);

  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <div className="panel-head">
        <h2 id="timeline-title">Timeline</h2>
        <Legend used={used} />
      </div>
      {!show ? (
        <p className="timeline-empty">
          {pending ? 'Starting the workers…' : 'Press Run to see the workers race, lane by lane.'}
        </p>
      ) : (
        <TooltipHost>
          <div className="tl-body" ref={body}>
            <div className="tl-overlay">
              <GridLines scale={scale} />
              <OverlapBands spans={overlaps} scale={scale} />
              {runId && <LiveEdge runId={runId} scale={scale} body={body} />}
            </div>
            <div className="tl-row axis-row">
              <div className="tl-label">
                <span className="axis-unit">time since start</span>
              </div>
              <div className="tl-track" ref={axisTrack}>
                <TimeAxis scale={scale} />
              </div>
            </div>
            {lanes.map((lane) => (
              <WorkerLane key={lane.workerId} lane={lane} scale={scale} trackPx={trackPx} />
            ))}
            {hasLeases && <OverlapRow spans={overlaps} scale={scale} />}
            {storeLanes.map((k) => (
              <StoreLane key={`${k.store}:${k.name}`} lane={k} scale={scale} workers={summary.workers} />
            ))}
          </div>
        </TooltipHost>
      )}
    </section>
  );
}
