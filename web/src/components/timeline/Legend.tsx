// What each shape means, in words: for the onboarding engineer and the blog reader. Every
// shape is always listed, so the legend keeps its size from the first screen on (it never
// moves the lanes mid-run); those the run on screen does not use are dimmed.
import { deriveOverlaps } from '../../model/holders.js';
import { deriveLanes, type Lane } from '../../model/lanes.js';
import { deriveTruth } from '../../model/truth.js';
import { useStore } from '../../store/index.js';
import { selectCurrentEvents } from '../../store/selectors.js';
import type { IconName } from '../../model/icons.js';
import { Icon } from '../icons/Icon.js';

const items: { cls: string; text: string; glyph?: IconName }[] = [
  { cls: 'lease', text: 'lease held' },
  { cls: 'zombie', text: 'zombie: lease gone, worker still acting' },
  { cls: 'truth', text: 'Redis holds it (observed)' },
  { cls: 'stall', text: 'process stalled' },
  { cls: 'blocked', text: 'event loop blocked' },
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
  { cls: 'playhead', text: 'playhead: click the time axis, step with , and .' },
];

/** The legend entries a run's lanes use. */
export function usedShapes(lanes: Lane[], overlaps: number, truth = false): Set<string> {
  const used = new Set<string>(['playhead']);
  if (truth) used.add('truth');
  for (const lane of lanes) {
    if (lane.leases.length > 0) used.add('lease');
    if (lane.leases.some((l) => l.zombie && !l.zombie.pending)) used.add('zombie');
    for (const s of lane.spans) used.add(s.kind === 'call' ? 'work' : s.kind);
    for (const m of lane.marks) used.add(m.kind);
  }
  if (overlaps > 0) used.add('overlap');
  return used;
}

export function Legend({ used }: { used: Set<string> | null }) {
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
}

/** The legend of the run on top of the screen (every shape in full before a run). */
export function RunLegend() {
  const events = useStore(selectCurrentEvents);
  const shown = useStore((s) => s.shown.length > 0 && s.pending.length === 0);
  const used = shown && events.length > 0 ? usedShapes(deriveLanes(events), deriveOverlaps(events).length, deriveTruth(events).size > 0) : null;
  return <Legend used={used} />;
}
