// Many shapes drawn as one where the drawn window holds more than fit: "37 leases".
import type { ReactNode } from 'react';
import type { Group, Thinned } from '../../model/lod.js';
import { groupLabel } from '../../model/laneScene.js';
import type { TimeScale } from '../../model/timeScale.js';
import { intervalStyle } from './geometry.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

interface Props {
  group: Group;
  /** What the group stands for, in the plural: "leases". */
  what: string;
  owner: string;
  cls: string;
  scale: TimeScale;
}

export const GroupBar = shape(function GroupBar({ group, what, owner, cls, scale }: Props) {
  const tip = useTip({ title: groupLabel(what, group.count, group.startMs, group.endMs, owner), lines: ['zoom in to see each one'] });
  return (
    <div className={`${cls} group`} style={intervalStyle(group.startMs, group.endMs, scale)} {...tip}>
      <span className="bar-text">
        {group.count} {what}
      </span>
    </div>
  );
});

/** A thinned row of shapes: each one drawn by `drawOne` (which keys it), each group as a GroupBar. */
export function drawThinned<T>(shown: readonly Thinned<T>[], group: Omit<Props, 'group'>, drawOne: (item: T) => ReactNode): ReactNode[] {
  return shown.map((t) => (t.kind === 'one' ? drawOne(t.item) : <GroupBar key={t.id} group={t} {...group} />));
}
