// One worker's lane: its stalls behind, its leases on top, its waits and work below them,
// and the instants (writes, skips, deaths) as marks.
import { useMemo, type CSSProperties } from 'react';
import type { Lane } from '../../model/lanes.js';
import { markExtent, stackMarks } from '../../model/layout.js';
import type { TimeScale } from '../../model/timeScale.js';
import { workerColor } from './colors.js';
import { LeaseBar } from './LeaseBar.js';
import { MARK_ROW_PX, MarkGlyph } from './MarkGlyph.js';
import { SpanBar } from './SpanBar.js';

interface Props {
  lane: Lane;
  scale: TimeScale;
  /** Width of the track in px: how much room a caption takes. */
  trackPx: number;
}

export function WorkerLane({ lane, scale, trackPx }: Props) {
  const extent = useMemo(() => markExtent(trackPx), [trackPx]);
  const majors = useMemo(() => stackMarks(lane.marks.filter((m) => m.major), scale, extent, 4), [lane, scale, extent]);
  const minors = useMemo(() => stackMarks(lane.marks.filter((m) => !m.major), scale, extent, 1), [lane, scale, extent]);
  // A crowded lane grows a row of marks at a time.
  const rows = majors.reduce((n, p) => Math.max(n, p.row + 1), 0);
  const height = 98 + MARK_ROW_PX * Math.max(0, rows - 2);
  const stalls = lane.spans.filter((s) => s.kind === 'stall');
  const others = lane.spans.filter((s) => s.kind !== 'stall');
  return (
    <div
      className={`tl-row lane${lane.died ? ' died' : ''}`}
      role="group"
      aria-label={lane.workerId}
      style={{ '--worker': workerColor(lane.index) } as CSSProperties}
    >
      <div className="tl-label">
        <span className="swatch" aria-hidden="true" />
        <span className="worker-id">{lane.workerId}</span>
        {lane.pid !== null && <span className="worker-facts">pid {lane.pid}</span>}
        {lane.fate && <span className="worker-facts fate">{lane.fate}</span>}
      </div>
      <div className="tl-track" style={{ height }}>
        {stalls.map((s) => (
          <SpanBar key={s.id} span={s} scale={scale} />
        ))}
        {lane.leases.map((l) => (
          <LeaseBar key={l.id} lease={l} scale={scale} />
        ))}
        {others.map((s) => (
          <SpanBar key={s.id} span={s} scale={scale} />
        ))}
        {minors.map((p) => (
          <MarkGlyph key={p.mark.id} placed={p} />
        ))}
        {majors.map((p) => (
          <MarkGlyph key={p.mark.id} placed={p} />
        ))}
      </div>
    </div>
  );
}
