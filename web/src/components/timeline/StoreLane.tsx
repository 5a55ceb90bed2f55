// Ground truth for one watched key or row: what the store held, who it belonged to, and
// for a Redis key its TTL. A key with no expiry is flagged in words, not only by colour.
import { memo, useMemo, type CSSProperties } from 'react';
import { anyOpen, thinIntervals } from '../../model/lod.js';
import type { TimeWindow } from '../../model/viewport.js';
import { drawThinned } from './GroupBar.js';
import { absentWord, drawnEndMs, segmentText, storeKind, type StoreLane as Lane, type StoreSegment } from '../../model/storeLanes.js';
import { formatMs, timeToX, type TimeScale } from '../../model/timeScale.js';
import { workerColor } from './colors.js';
import { intervalStyle } from './geometry.js';
import { Shape } from './Shape.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

function endWords(s: StoreSegment): string | null {
  if (!s.endedBy) return null;
  if (s.endedBy.kind === 'expired') return 'then: expired';
  if (s.endedBy.kind === 'deleted') return s.endedBy.by === s.holder ? `then: released by ${s.holder}` : `then: deleted by ${s.endedBy.by}`;
  return 'then: replaced';
}

interface SegmentProps {
  store: string;
  seg: StoreSegment;
  scale: TimeScale;
  color: string;
  /** The key is a lease key: never expiring there is the hazard. */
  flagNoExpiry: boolean;
}

const Segment = shape(function Segment({ store, seg, scale, color, flagNoExpiry }: SegmentProps) {
  const end = endWords(seg);
  const lines = [
    seg.value === null ? absentWord(store) : `value: ${seg.value}`,
    ...(seg.holder ? [`holder: ${seg.holder}${seg.holderInferred ? ' (the last worker to acquire it)' : ''}`] : []),
    ...(seg.named.length > 1 ? [`names ${seg.named.length} workers at once: ${seg.named.join(', ')}`] : []),
    ...(seg.value === null || seg.pttlMs === null
      ? []
      : [
          seg.noExpiry
            ? flagNoExpiry
              ? 'NO EXPIRY (PTTL -1): nothing will ever free it'
              : 'no expiry (PTTL -1)'
            : `PTTL ${formatMs(seg.pttlMs)} when first seen`,
        ]),
    ...(seg.stale ? ['stale: written by a worker whose fence or read was no longer current'] : []),
    ...(end ? [end] : seg.atEnd ? ['still held when the run ended'] : []),
  ];
  const tip = useTip({ title: seg.label, lines });
  const empty = seg.value === null;
  // "no key" is only worth writing where there is room for it.
  const endMs = drawnEndMs(seg, scale);
  const room = endMs === null || timeToX(endMs, scale) - timeToX(seg.startMs, scale) > 6;
  const style: CSSProperties = { ...intervalStyle(seg.startMs, endMs, scale) };
  if (!empty && seg.holder) (style as Record<string, string>)['--holder'] = color;
  const cls = [
    'key-seg',
    empty && 'empty',
    seg.noExpiry && flagNoExpiry && 'no-expiry',
    seg.pttlMs === null && 'row',
    seg.named.length > 1 && 'many',
    seg.stale && 'stale',
    seg.atEnd && 'at-end',
  ].filter(Boolean);
  return (
    <Shape className={cls.join(' ')} style={style} enter="fade" {...tip}>
      <span className="bar-text">{empty && !room ? '' : segmentText(store, seg, flagNoExpiry)}</span>
    </Shape>
  );
});

interface LaneProps {
  lane: Lane;
  scale: TimeScale;
  drawn: TimeWindow;
  pxWidth: number;
  workers: string[];
  /** The lane above is of the same store: on stage, where a label is one line, it names only the key. */
  sameStoreAbove: boolean;
}

/**
 * A key's name as its namespace (up to the first colon) and the rest. On stage, where a
 * label is one line, the rest is cut at its start: keys that share a prefix differ at their
 * end (lock:sync:customer-1, -2…), and keys that share an end differ by their namespace
 * (lock:late-write, fence:late-write), so both ends stay in sight.
 */
function KeyName({ name }: { name: string }) {
  const colon = name.indexOf(':');
  const head = colon > 0 && colon < name.length - 1 ? name.slice(0, colon + 1) : '';
  return (
    <span className="worker-facts key-name">
      {head && <span className="key-head">{head}</span>}
      <span className="key-rest">
        <bdi>{name.slice(head.length)}</bdi>
      </span>
    </span>
  );
}

export const StoreLane = memo(function StoreLane({ lane, scale, drawn, pxWidth, workers, sameStoreAbove }: LaneProps) {
  const shown = useMemo(() => thinIntervals(lane.segments, drawn, pxWidth), [lane, drawn, pxWidth]);
  const name = `${lane.store} ${lane.name}`;
  return (
    <div className={`tl-row store ${storeKind(lane.store)}${sameStoreAbove ? ' same-store' : ''}`} role="group" aria-label={name}>
      <div className="tl-label" title={name}>
        <span className="worker-id">{lane.store}</span>
        <KeyName name={lane.name} />
      </div>
      <div className="tl-track">
        <div className="tl-content" data-open={anyOpen(shown) ? '' : undefined}>
          {drawThinned(shown, { what: 'values', owner: name, cls: 'key-seg', scale }, (seg) => (
            <Segment
              key={seg.id}
              store={lane.store}
              seg={seg}
              scale={scale}
              color={workerColor(workers.indexOf(seg.holder ?? ''))}
              flagNoExpiry={lane.leaseKey}
            />
          ))}
        </div>
      </div>
    </div>
  );
});
