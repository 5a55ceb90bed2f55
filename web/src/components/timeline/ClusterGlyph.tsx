// Marks too close to tell apart at this zoom: one glyph with their count. data-marks names
// the first and last marks it stands for (as MarkGlyph's data-mark names its one), for
// tools that check or time what the page has drawn.
import type { MarkCluster } from '../../model/laneScene.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

export const ClusterGlyph = shape(function ClusterGlyph({ cluster }: { cluster: MarkCluster }) {
  const tip = useTip({ title: cluster.label, lines: cluster.details });
  return (
    <div className="mark major cluster" data-marks={`${cluster.firstId} ${cluster.lastId}`} style={{ left: `${cluster.x}%` }} {...tip}>
      <span className="glyph" aria-hidden="true">
        {cluster.count > 99 ? '99+' : cluster.count}
      </span>
    </div>
  );
});
