// Marks too close to tell apart at this zoom: one glyph with their count.
import type { MarkCluster } from '../../model/laneScene.js';
import { useTip } from './Tooltip.js';

export function ClusterGlyph({ cluster }: { cluster: MarkCluster }) {
  const tip = useTip({ title: cluster.label, lines: cluster.details });
  return (
    <div className="mark major cluster" style={{ left: `${cluster.x}%`, top: 10 }} {...tip}>
      <span className="glyph" aria-hidden="true">
        {cluster.count > 99 ? '99+' : cluster.count}
      </span>
    </div>
  );
}
