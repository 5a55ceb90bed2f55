// What each shape means, in words: for the onboarding engineer and the blog reader. Only
// the shapes the run on screen uses are listed (all of them before the first run).
import type { IconName } from '../../model/icons.js';
import type { Lane } from '../../model/lanes.js';
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
  const shown = used ? items.filter((i) => used.has(i.cls)) : items;
  if (shown.length === 0) return null;
  return (
    <ul className="legend" aria-label="Legend">
      {shown.map((i) => (
        <li key={i.cls}>
          <span className={`legend-swatch swatch-${i.cls}`} aria-hidden="true">
            {i.glyph && <Icon name={i.glyph} />}
          </span>
          {i.text}
        </li>
      ))}
    </ul>
  );
}
