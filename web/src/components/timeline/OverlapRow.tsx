// Where two or more workers believed they held the same lock at once: a row of named bars,
// and a faint band behind every lane (drawn by the overlay).
import type { HolderSpan } from '../../model/holders.js';
import { formatMs, type TimeScale } from '../../model/timeScale.js';
import { intervalStyle } from './geometry.js';
import { useTip } from './Tooltip.js';

function OverlapBar({ span, scale }: { span: HolderSpan; scale: TimeScale }) {
  const end = span.endMs === null ? 'now' : formatMs(span.endMs);
  const tip = useTip({
    title: `${span.holders.length} holders of ${span.key} from ${formatMs(span.startMs)} to ${end}: ${span.holders.join(', ')}`,
    lines: ['each of them believed it held the lock'],
  });
  return (
    <div className="overlap-bar" style={intervalStyle(span.startMs, span.endMs, scale)} {...tip}>
      <span className="bar-text">
        {span.holders.length} holders: {span.holders.join(' + ')}
      </span>
    </div>
  );
}

export function OverlapRow({ spans, scale }: { spans: HolderSpan[]; scale: TimeScale }) {
  return (
    <div className="tl-row overlaps" role="group" aria-label="Overlapping holders">
      <div className="tl-label">
        <span className="worker-id">Holders</span>
        <span className="worker-facts">{spans.length === 0 ? 'never more than one' : 'more than one at once'}</span>
      </div>
      <div className="tl-track">
        {spans.map((s) => (
          <OverlapBar key={`${s.key}-${s.startMs}`} span={s} scale={scale} />
        ))}
      </div>
    </div>
  );
}

export function OverlapBands({ spans, scale }: { spans: HolderSpan[]; scale: TimeScale }) {
  return (
    <>
      {spans.map((s) => (
        <span key={`${s.key}-${s.startMs}`} className="overlap-band" style={intervalStyle(s.startMs, s.endMs, scale)} aria-hidden="true" />
      ))}
    </>
  );
}
