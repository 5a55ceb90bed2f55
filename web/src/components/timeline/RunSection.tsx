// One run on the shared time axis: a lane per worker, the holders row, what the stores
// held, and the bands where two workers held one lock. In a compare, a header row names
// the run and gives its verdict; the broken run sits above the correct one.
import { useLayoutEffect, useMemo } from 'react';
import { deriveOverlaps } from '../../model/holders.js';
import { deriveLanes, rosterLanes } from '../../model/lanes.js';
import { nextHorizon } from '../../model/layout.js';
import { runSummary } from '../../model/runSummary.js';
import { deriveStoreLanes } from '../../model/storeLanes.js';
import { makeScale } from '../../model/timeScale.js';
import { deriveTruth } from '../../model/truth.js';
import { deriveVerdict } from '../../model/verdict.js';
import type { TimeWindow } from '../../model/viewport.js';
import { arrivals } from '../../store/arrivals.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { useStore } from '../../store/index.js';
import { scenarioOfRun, selectRunFacts, takesFaults } from '../../store/selectors.js';
import { runTitle } from '../panels/runTitle.js';
import { NodeFaults } from './NodeFaults.js';
import { OverlapBands, OverlapRow } from './OverlapRow.js';
import { StoreLane } from './StoreLane.js';
import { WorkerLane } from './WorkerLane.js';

const NO_TRUTH: never[] = [];
const NO_ROSTER: readonly string[] = [];

interface Props {
  runId: string;
  drawn: TimeWindow;
  pxWidth: number;
  withHeader: boolean;
}

export function RunSection({ runId, drawn, pxWidth, withHeader }: Props) {
  const run = useStore((s) => selectRunFacts(s, runId));
  const takingFaults = useStore((s) => takesFaults(s.runs[runId]));
  const scenario = useStore((s) => scenarioOfRun(s, s.runs[runId]));
  // The log up to the cursor: lanes, truth, holders and verdict as they stood then.
  const events = useDrawnLog(runId);
  const roster = run?.roster;
  // Until the run-started names them, the workers the server named on taking the run: their
  // lanes are laid out while the workers start, and the first events only add to them.
  const lanes = useMemo(() => (events.length > 0 ? deriveLanes(events) : rosterLanes(roster ?? NO_ROSTER)), [events, roster]);
  const scale = useMemo(() => makeScale(drawn.startMs, drawn.endMs), [drawn]);
  // The frame that draws these events from the log no longer draws them as arrivals.
  useLayoutEffect(() => {
    const last = events.at(-1);
    if (last) arrivals.drawnThrough(runId, last.seq);
  }, [runId, events]);
  if (!run) return null;
  const summary = runSummary(events);
  const truth = deriveTruth(events);
  const storeLanes = deriveStoreLanes(events);
  const overlaps = deriveOverlaps(events);
  const reachMs = summary.endMs === null ? summary.lastMs : null;
  // Unzoomed, a running run's drawing is its domain, which grows to the next horizon.
  const growsToMs = reachMs !== null && drawn.startMs === 0 ? nextHorizon(drawn.endMs) : null;
  const faultsFor = takingFaults ? runId : null;
  const title = runTitle(scenario, run.scenario, run.variant);
  const verdict = deriveVerdict(events, scenario);
  return (
    <div className="tl-section" role="group" aria-label={`Run of ${title}`}>
      {withHeader && (
        <div className="tl-row section-head">
          <div className="tl-label">
            <span className="worker-id">{run.variant}</span>
          </div>
          <div className="section-title">
            <strong>{title}</strong>{' '}
            {verdict.state === 'finished' && <span className={verdict.pass ? 'pass' : 'fail'}>{verdict.headline}</span>}
          </div>
        </div>
      )}
      <div className="tl-section-overlay" aria-hidden="true">
        <div className="tl-content" data-open={overlaps.some((o) => o.endMs === null) ? '' : undefined}>
          <OverlapBands spans={overlaps} scale={scale} drawn={drawn} pxWidth={pxWidth} />
        </div>
      </div>
      {lanes.map((lane) => (
        <WorkerLane
          key={lane.workerId}
          runId={runId}
          lane={lane}
          truth={truth.get(lane.workerId) ?? NO_TRUTH}
          drawn={drawn}
          pxWidth={pxWidth}
          faultsFor={faultsFor}
          reachMs={reachMs}
          growsToMs={growsToMs}
        />
      ))}
      {lanes.some((l) => l.leases.length > 0) && <OverlapRow spans={overlaps} scale={scale} drawn={drawn} pxWidth={pxWidth} />}
      {faultsFor && <NodeFaults runId={faultsFor} />}
      {storeLanes.map((k, i) => (
        <StoreLane
          key={`${k.store}:${k.name}`}
          lane={k}
          scale={scale}
          drawn={drawn}
          pxWidth={pxWidth}
          workers={summary.workers}
          sameStoreAbove={storeLanes[i - 1]?.store === k.store}
        />
      ))}
    </div>
  );
}
