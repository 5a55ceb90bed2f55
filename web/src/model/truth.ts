// Truth beside belief: for each worker, when Redis itself held a lease key for it, as the
// server observed it (not as the worker believed). Drawn under the worker's lease bar.
import { memoOnLog, type EventLog } from './memo.js';
import { deriveStoreLanes, storeKind } from './storeLanes.js';
import { formatMs } from './timeScale.js';

export interface TruthSegment {
  id: string;
  workerId: string;
  key: string;
  startMs: number;
  /** null: still held at the live edge. */
  endMs: number | null;
  noExpiry: boolean;
  /** Redis still held it when the run ended: drawn to the right edge. */
  atEnd: boolean;
  /** The value names no worker: the holder is the last worker to acquire the key. */
  inferred: boolean;
  label: string;
}

/** Per worker, the stretches during which Redis held a lease key for it. */
export const deriveTruth = memoOnLog((events: EventLog): Map<string, TruthSegment[]> => {
  const out = new Map<string, TruthSegment[]>();
  for (const lane of deriveStoreLanes(events)) {
    if (storeKind(lane.store) !== 'redis' || !lane.leaseKey) continue;
    for (const s of lane.segments) {
      if (s.value === null || s.holder === null || s.named.length > 1) continue;
      const span = `from ${formatMs(s.startMs)}${s.endMs === null ? '' : ` to ${formatMs(s.endMs)}`}`;
      const segment: TruthSegment = {
        id: `truth-${s.id}`,
        workerId: s.holder,
        key: lane.name,
        startMs: s.startMs,
        endMs: s.endMs,
        noExpiry: s.noExpiry,
        atEnd: s.atEnd,
        inferred: s.holderInferred,
        label: `Redis held ${lane.name} for ${s.holder} ${span}${s.noExpiry ? ', no expiry' : ''}`,
      };
      const list = out.get(s.holder) ?? [];
      list.push(segment);
      out.set(s.holder, list);
    }
  }
  return out;
});

const NONE: TruthSegment[] = [];

export function truthOf(events: EventLog, workerId: string): TruthSegment[] {
  return deriveTruth(events).get(workerId) ?? NONE;
}
