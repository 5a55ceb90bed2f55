// What each shape means, in words: for the onboarding engineer and the blog reader. Every
// shape is always listed, so the legend keeps its size from the first screen on (it never
// moves the lanes mid-run); those the run on screen does not use are dimmed.
import { memo, useMemo } from 'react';
import { deriveOverlaps } from '../../model/holders.js';
import { deriveLanes, type Lane } from '../../model/lanes.js';
import { memoOnLog, type EventLog } from '../../model/memo.js';
import { deriveTruth } from '../../model/truth.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { useStore } from '../../store/index.js';
import { selectCurrentRunId } from '../../store/selectors.js';
import type { IconName } from '../../model/icons.js';
import { Icon } from '../icons/Icon.js';

const items: { cls: string; text: string; glyph?: IconName }[] = [
  { cls: 'lease', text: 'lease held' },
  { cls: 'zombie', text: 'zombie: lease gone, worker still acting' },
  { cls: 'truth', text: 'Redis holds it (observed)' },
  { cls: 'stall', text: 'process stalled' },
  { cls: 'blocked', text: 'event loop blocked' },
  { cls: 'cut', text: 'a lab node cut from the worker (isolated)' },
  { cls: 'slow', text: 'a lab node slowed for the worker (latency added)' },
  { cls: 'wait', text: 'waiting' },
  { cls: 'work', text: 'working' },
  { cls: 'read', glyph: 'read', text: 'value read' },
  { cls: 'write-accepted', glyph: 'check', text: 'write accepted' },
  { cls: 'write-rejected', glyph: 'cross', text: 'write rejected' },
  { cls: 'call-ok', glyph: 'reply', text: 'call answered ok (2xx)' },
  { cls: 'call-failed', glyph: 'reply-refused', text: 'call failed (4xx/5xx)' },
  { cls: 'clock', glyph: 'clock', text: 'the worker’s own clock' },
  { cls: 'skip', glyph: 'ban', text: 'denied / skipped' },
  { cls: 'death', glyph: 'skull', text: 'killed' },
  { cls: 'blind-delete', glyph: 'alert', text: 'deleted another’s lock' },
  { cls: 'overlap', text: 'two holders at once' },
  { cls: 'playhead', text: 'playhead: click the time axis, or step with the comma and period keys' },
];

/** The legend entries a run's lanes use. */
export function usedShapes(lanes: Lane[], overlaps: number, truth = false): Set<string> {
  const used = new Set<string>(['playhead']);
  if (truth) used.add('truth');
  for (const lane of lanes) {
    if (lane.leases.length > 0) used.add('lease');
    if (lane.leases.some((l) => l.zombie && !l.zombie.pending)) used.add('zombie');
    for (const kind of lane.spanKinds) used.add(kind === 'call' ? 'work' : kind);
    for (const kind of lane.markKinds) used.add(kind);
  }
  if (overlaps > 0) used.add('overlap');
  return used;
}

/** The entries the shown log uses, as one string: a primitive to select on, computed once per log. */
const usedKeyOf = memoOnLog((events: EventLog) =>
  [...usedShapes(deriveLanes(events), deriveOverlaps(events).length, deriveTruth(events).size > 0)].sort().join(' '),
);

export const Legend = memo(function Legend({ used }: { used: Set<string> | null }) {
  return (
    <ul className="legend" aria-label="Legend">
      {items.map((i) => {
        const inUse = used === null || used.has(i.cls);
        return (
          <li key={i.cls} className={inUse ? undefined : 'unused'} aria-disabled={inUse ? undefined : true}>
            <span className={`legend-swatch swatch-${i.cls}`} aria-hidden="true">
              {i.glyph && <Icon name={i.glyph} />}
            </span>
            {i.text}
          </li>
        );
      })}
    </ul>
  );
});

/** The legend of the run on top of the screen (every shape in full before a run). */
export function RunLegend() {
  // A live run appends a batch of events every frame; the legend changes a few times a run.
  const shown = useStore((s) => s.shown.length > 0 && s.pending.length === 0);
  const events = useDrawnLog(useStore(selectCurrentRunId));
  const key = shown && events.length > 0 ? usedKeyOf(events) : null;
  const used = useMemo(() => (key === null ? null : new Set(key.split(' '))), [key]);
  return <Legend used={used} />;
}
