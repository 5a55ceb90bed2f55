// One worker's lane: its stalls behind, the lease it believed it held on top with what
// Redis really held under it, its waits and work below them, and its instants (writes,
// skips, deaths) as marks. Shapes outside the drawn window are left out; past a budget
// they are drawn as groups and clusters (see model/laneScene).
import { memo, useMemo, type CSSProperties } from 'react';
import type { Lane } from '../../model/lanes.js';
import { laneScene, MARK_ROW_PX } from '../../model/laneScene.js';
import { CAPTION_CHAR_PX, STAGE_CAPTION_CHAR_PX } from '../../model/layout.js';
import type { TruthSegment } from '../../model/truth.js';
import type { TimeWindow } from '../../model/viewport.js';
import { useStore } from '../../store/index.js';
import { Icon } from '../icons/Icon.js';
import { ClusterGlyph } from './ClusterGlyph.js';
import { workerColor } from './colors.js';
import { drawThinned } from './GroupBar.js';
import { ArrivalTicks } from './ArrivalTicks.js';
import { LaneFaults } from './LaneFaults.js';
import { LeaseBar } from './LeaseBar.js';
import { MarkGlyph } from './MarkGlyph.js';
import { SpanBar } from './SpanBar.js';
import { TruthBar } from './TruthBar.js';

interface Props {
  runId: string;
  lane: Lane;
  truth: TruthSegment[];
  drawn: TimeWindow;
  /** Width of the drawn window in px: how much room a caption takes. */
  pxWidth: number;
  /** The run's id while its workers can take live faults; null otherwise. */
  faultsFor: string | null;
  /** While the run is in progress, where its facts reach (see laneScene); null once finished. */
  reachMs: number | null;
  /** While the drawn window is the run's whole domain, where it grows next; else null. */
  growsToMs: number | null;
}

export const WorkerLane = memo(function WorkerLane({ runId, lane, truth, drawn, pxWidth, faultsFor, reachMs, growsToMs }: Props) {
  // On stage captions are larger: they collide sooner, and take more rows.
  const presenter = useStore((s) => s.presenter);
  const scene = useMemo(
    () =>
      laneScene(lane, truth, drawn, pxWidth, { reachMs, growsToMs, captionCharPx: presenter ? STAGE_CAPTION_CHAR_PX : CAPTION_CHAR_PX }),
    [lane, truth, drawn, pxWidth, reachMs, growsToMs, presenter],
  );
  const { scale } = scene;
  const owner = lane.workerId;
  return (
    <div
      className={`tl-row lane${lane.died ? ' died' : ''}`}
      role="group"
      aria-label={lane.workerId}
      // Its height and its rows of marks as numbers the stylesheet places them by (presenter
      // mode lays a lane out tighter, and shares the height there is between the lanes).
      style={
        {
          '--worker': workerColor(lane.index),
          '--lane-h': `${scene.heightPx}px`,
          '--mark-rows': scene.rows,
          '--mark-row-px': `${MARK_ROW_PX}px`,
        } as CSSProperties
      }
    >
      <div className="tl-label">
        <span className="swatch" aria-hidden="true" />
        <span className="worker-id">{lane.workerId}</span>
        {lane.pid !== null && (
          <span className="worker-facts pid" title={lane.host ? `process ${lane.pid} on the host of worker agent ${lane.host}` : undefined}>
            pid {lane.pid}
            {lane.host && ` on ${lane.host}`}
          </span>
        )}
        {lane.fate && <span className={`worker-facts fate${lane.fate === 'exited 0' ? ' ordinary' : ''}`}>{lane.fate}</span>}
        {lane.clock && (
          <span className="worker-facts clock">
            <Icon name="clock" /> {lane.clock}
          </span>
        )}
        {faultsFor && <LaneFaults runId={faultsFor} lane={lane} />}
      </div>
      <div className="tl-track">
        <div className="tl-content" data-open={scene.open ? '' : undefined}>
          {drawThinned(scene.stalls, { what: 'stalls', owner, cls: 'span stall', scale }, (s) => (
            <SpanBar key={s.id} span={s} scale={scale} />
          ))}
          {drawThinned(scene.leases, { what: 'leases', owner, cls: 'lease', scale }, (l) => (
            <LeaseBar key={l.id} lease={l.lease} scale={scale} />
          ))}
          {drawThinned(scene.truth, { what: 'Redis holds', owner, cls: 'truth', scale }, (seg) => (
            <TruthBar key={seg.id} seg={seg} scale={scale} />
          ))}
          {drawThinned(scene.spans, { what: 'waits and work', owner, cls: 'span work', scale }, (s) => (
            <SpanBar key={s.id} span={s} scale={scale} />
          ))}
          {scene.minors.map((p) => (
            <MarkGlyph key={p.mark.id} placed={p} />
          ))}
          {scene.majors.map((p) => (
            <MarkGlyph key={p.mark.id} placed={p} />
          ))}
          {scene.clusters.map((c, i) => (
            // Keyed by its place in the lane: when the domain grows, every cluster of a live
            // lane starts at another mark, and each element then takes its new marks in place
            // instead of all of them being taken down and drawn again in one frame.
            <ClusterGlyph key={i} cluster={c} />
          ))}
          {(faultsFor !== null || reachMs !== null) && <ArrivalTicks runId={runId} workerId={owner} drawn={drawn} pxWidth={pxWidth} />}
        </div>
      </div>
    </div>
  );
});
