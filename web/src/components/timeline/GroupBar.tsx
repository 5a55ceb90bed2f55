// Many shapes drawn as one where the drawn window holds more than fit: "37 leases".
import type { Group } from '../../model/lod.js';
import { groupLabel } from '../../model/laneScene.js';
import type { TimeScale } from '../../model/timeScale.js';
import { intervalStyle } from './geometry.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

export const GroupBar = shape(function GroupBar({
  group,
  what,
  owner,
  cls,
  scale,
}: {
  group: Group;
  what: string;
  owner: string;
  cls: string;
  scale: TimeScale;
}) {
  const tip = useTip({ title: groupLabel(what, group.count, group.startMs, group.endMs, owner), lines: ['zoom in to see each one'] });
  return (
    <div className={`${cls} group`} style={intervalStyle(group.startMs, group.endMs, scale)} {...tip}>
      <span className="bar-text">
        {group.count} {what}
      </span>
    </div>
  );
});
