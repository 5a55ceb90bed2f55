// The numbers a variant's `figures` line gives by a metric's own label, e.g. "max concurrent
// holders 2" for the metric labelled "Max concurrent holders": what can be held to a measured
// run. Words the line uses instead of a label ("e-mails 3", "2 holders") are not read.
import type { MetricSpec } from '@racelab/shared';

/** A figure the line names by its metric's label, with the number after it. */
export interface NamedFigure {
  metric: string;
  value: number;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every metric whose label, in any case, is followed in the line by an integer. */
export function namedFigures(figures: string, metrics: readonly MetricSpec[]): NamedFigure[] {
  return metrics.flatMap((m) => {
    const found = new RegExp(`\\b${escaped(m.label)}\\s+(-?\\d+)\\b`, 'i').exec(figures);
    return found ? [{ metric: m.name, value: Number(found[1]) }] : [];
  });
}
