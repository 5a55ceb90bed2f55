// Intervals in a lane: waiting for a lock, doing the work, the process stalled, or a lab node cut from the worker or slowed.
import type { Span } from '../../model/lanes.js';
import { formatMs, type TimeScale } from '../../model/timeScale.js';
import { intervalStyle } from './geometry.js';
import { Shape } from './Shape.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

export const SpanBar = shape(function SpanBar({ span, scale }: { span: Span; scale: TimeScale }) {
  const end = span.endMs === null ? 'now' : formatMs(span.endMs);
  const tip = useTip({ title: `${span.label} to ${end}`, lines: span.details });
  return (
    <Shape className={`span ${span.kind}`} style={intervalStyle(span.startMs, span.endMs, scale)} enter="fade" {...tip}>
      {span.kind === 'stall' && <span className="bar-text">stalled</span>}
      {span.kind === 'blocked' && <span className="bar-text">event loop blocked</span>}
      {span.kind === 'cut' && <span className="bar-text">{span.caption ?? 'cut'}</span>}
      {span.kind === 'slow' && <span className="bar-text">{span.caption ?? 'slowed'}</span>}
    </Shape>
  );
});
