// What each shape means, in words: for the onboarding engineer and the blog reader. Beside
// the lanes, the legend lists only the shapes the runs on screen draw (derived from their
// events), under the lanes, where a new entry moves none of them. In presenter mode every
// shape is listed, those not drawn dimmed, so the legend beside the verdict keeps its size
// from the first screen on. On stage and on a phone it sits by the verdict, not in the
// timeline's box (whose height is the lanes').
import { memo, useMemo } from 'react';
import { PHONE } from '../../app/stageInSight.js';
import { useMedia } from '../../app/useMedia.js';
import { deriveOverlaps } from '../../model/holders.js';
import { deriveLanes, type Lane } from '../../model/lanes.js';
import { memoOnLog, type EventLog } from '../../model/memo.js';
import { deriveTruth } from '../../model/truth.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { useStore } from '../../store/index.js';
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

export const Legend = memo(function Legend({ used, only }: { used: Set<string> | null; only: boolean }) {
  const listed = only ? items.filter((i) => used?.has(i.cls)) : items;
  if (listed.length === 0) return null;
  return (
    <ul className="legend" aria-label="Legend">
      {listed.map((i) => {
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

/** The entries one of the runs on screen uses (none while it has no events). */
function useUsedKey(runId: string | null): string {
  const events = useDrawnLog(runId);
  return events.length > 0 ? usedKeyOf(events) : '';
}

/**
 * The legend of the runs on screen (both of a compare): with `only`, just the shapes they
 * draw (nothing before a run); without, every shape, those not drawn dimmed (in full before a run).
 */
export function RunLegend({ only = false }: { only?: boolean }) {
  // A live run appends a batch of events every frame; the legend changes a few times a run.
  const shown = useStore((s) => s.shown.length > 0 && s.pending.length === 0);
  const first = useUsedKey(useStore((s) => s.shown[0] ?? null));
  const second = useUsedKey(useStore((s) => s.shown[1] ?? null));
  const key = shown && (first || second) ? `${first} ${second}`.trim() : null;
  const used = useMemo(() => (key === null ? null : new Set(key.split(' '))), [key]);
  return <Legend used={used} only={only} />;
}

/** Whether the legend sits by the verdict (on stage, on a phone) rather than under the lanes. */
export function useLegendByVerdict(): boolean {
  const phone = useMedia(PHONE);
  const presenter = useStore((s) => s.presenter);
  return phone || presenter;
}

/** The legend by the verdict, where it sits there: every shape on stage, the drawn ones on a phone. */
export function LegendByVerdict() {
  const presenter = useStore((s) => s.presenter);
  return useLegendByVerdict() ? <RunLegend only={!presenter} /> : null;
}
