// Where two or more workers believed they held the same lock at once: a row of named bars
// ("2 workers at once — the lock said 1"), and a faint band behind every lane of the run.
import { memo, useMemo } from 'react';
import type { HolderSpan } from '../../model/holders.js';
import { anyOpen, thinIntervals } from '../../model/lod.js';
import { formatMs, type TimeScale } from '../../model/timeScale.js';
import type { TimeWindow } from '../../model/viewport.js';
import { intervalStyle } from './geometry.js';
import { drawThinned } from './GroupBar.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

export const overlapWords = (n: number) => `${n} workers at once — the lock said 1`;

type Keyed = HolderSpan & { id: string };

const OverlapBar = shape(function OverlapBar({ span, scale }: { span: HolderSpan; scale: TimeScale }) {
  const end = span.endMs === null ? 'now' : formatMs(span.endMs);
  const tip = useTip({
    title: `${overlapWords(span.holders.length)}: ${span.holders.join(', ')} held ${span.key} from ${formatMs(span.startMs)} to ${end}`,
    lines: ['each of them believed it held the lock'],
  });
  return (
    <div className="overlap-bar" style={intervalStyle(span.startMs, span.endMs, scale)} {...tip}>
      <span className="bar-text">
        {overlapWords(span.holders.length)}: {span.holders.join(' + ')}
      </span>
    </div>
  );
});

function useThinned(spans: HolderSpan[], drawn: TimeWindow, pxWidth: number) {
  return useMemo(
    () =>
      thinIntervals<Keyed>(
        spans.map((s) => ({ ...s, id: `${s.key}-${s.startMs}` })),
        drawn,
        pxWidth,
      ),
    [spans, drawn, pxWidth],
  );
}

interface Props {
  spans: HolderSpan[];
  scale: TimeScale;
  drawn: TimeWindow;
  pxWidth: number;
}

export const OverlapRow = memo(function OverlapRow({ spans, scale, drawn, pxWidth }: Props) {
  const shown = useThinned(spans, drawn, pxWidth);
  return (
    <div className="tl-row overlaps" role="group" aria-label="Overlapping holders">
      <div className="tl-label">
        <span className="worker-id">Holders</span>
        <span className="worker-facts">{spans.length === 0 ? 'never more than one' : 'more than one at once'}</span>
      </div>
      <div className="tl-track">
        <div className="tl-content" data-open={anyOpen(shown) ? '' : undefined}>
          {drawThinned(shown, { what: 'overlaps', owner: 'the lock', cls: 'overlap-bar', scale }, (s) => (
            <OverlapBar key={s.id} span={s} scale={scale} />
          ))}
        </div>
      </div>
    </div>
  );
});

export const OverlapBands = memo(function OverlapBands({ spans, scale, drawn, pxWidth }: Props) {
  const shown = useThinned(spans, drawn, pxWidth);
  return (
    <>
      {shown.map((t) =>
        t.kind === 'one' ? (
          <span key={t.item.id} className="overlap-band" style={intervalStyle(t.item.startMs, t.item.endMs, scale)} aria-hidden="true" />
        ) : (
          <span key={t.id} className="overlap-band" style={intervalStyle(t.startMs, t.endMs, scale)} aria-hidden="true" />
        ),
      )}
    </>
  );
});
