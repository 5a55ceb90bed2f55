// Order statistics of a benchmark's samples. Nearest-rank percentiles: with 5 samples the
// p99 is the largest, which is what "p99 of several repetitions" can honestly mean.
import type { Stat, Target } from './figure.js';

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function statOf(values: readonly number[], stat: Stat): number {
  switch (stat) {
    case 'median':
      return percentile(values, 50);
    case 'p95':
      return percentile(values, 95);
    case 'p99':
      return percentile(values, 99);
    case 'min':
      return values.length ? Math.min(...values) : Number.NaN;
    case 'max':
      return values.length ? Math.max(...values) : Number.NaN;
  }
}

/** Whether the samples meet the target; null when there are none. */
export function meets(values: readonly number[], target: Target): boolean | null {
  const x = statOf(values, target.stat);
  if (!Number.isFinite(x)) return null;
  return target.op === '<=' ? x <= target.value : target.op === '>=' ? x >= target.value : x === target.value;
}
