// Stepping through a run: the moments worth stopping at are the workers' own facts and the
// run's end, in time order.
import { memoOnLog, type EventLog } from './memo.js';

/** Distinct times of worker facts and of the run's end, ascending. */
export const momentsOf = memoOnLog((events: EventLog): number[] => {
  const times = new Set<number>();
  for (const e of events) if (e.workerId !== null || e.type === 'run-finished' || e.type === 'run-failed') times.add(e.atMs);
  return [...times].sort((a, b) => a - b);
});

/** The next (dir 1) or previous (dir -1) moment from `current`; the first or last when none is set. */
export function stepMoment(moments: readonly number[], current: number | null, dir: 1 | -1): number | null {
  if (moments.length === 0) return null;
  if (current === null) return dir > 0 ? moments[0]! : moments[moments.length - 1]!;
  if (dir > 0) return moments.find((t) => t > current + 1e-9) ?? moments[moments.length - 1]!;
  for (let i = moments.length - 1; i >= 0; i--) if (moments[i]! < current - 1e-9) return moments[i]!;
  return moments[0]!;
}
