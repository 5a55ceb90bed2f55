// What Redis itself held for this worker (observed by the server), drawn thin under the
// lease the worker believed it held: where belief runs past truth, the zombie window shows.
import type { TimeScale } from '../../model/timeScale.js';
import { drawnEndMs } from '../../model/storeLanes.js';
import type { TruthSegment } from '../../model/truth.js';
import { intervalStyle } from './geometry.js';
import { useTip } from './Tooltip.js';
import { shape } from './sameProps.js';

export const TruthBar = shape(function TruthBar({ seg, scale }: { seg: TruthSegment; scale: TimeScale }) {
  const tip = useTip({
    title: seg.label,
    lines: [
      'observed in Redis by the server, not reported by the worker',
      ...(seg.inferred ? ['the value names no worker: the last worker to acquire the key'] : []),
    ],
  });
  return (
    <div
      className={`truth${seg.noExpiry ? ' no-expiry' : ''}`}
      style={intervalStyle(seg.startMs, drawnEndMs(seg, scale), scale)}
      {...tip}
    />
  );
});
