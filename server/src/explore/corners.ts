// The parameter sets a search starts from besides its own: each parameter, one at a time, at a
// bound of its range (a number at its lowest and its highest, a choice at each other option).
// Some near-misses are wrong only where a number runs out (a stock of 0 that an unguarded
// decrement takes below zero, a tenth customer whose name a shortened key no longer tells
// apart), and no order of the same steps shows that at the defaults. Boundary values are where
// such mistakes live; a value inside the range that only matters against another parameter (a
// stock between the larger sale and the two together) is not one of them.
import { formatParam, type ParamSpec, type ParamValue, type Params } from '@racelab/shared';

/** One parameter moved to a bound of its range. */
export interface ParamCorner {
  name: string;
  value: ParamValue;
  /** "initialStock at its lowest, 0". */
  words: string;
}

/**
 * The corners of `params`: every parameter not in `fixed` (those the caller gave) at each bound
 * its value is not already at. A list of numbers stays as it is: its length names the workers.
 */
export function paramCorners(specs: ParamSpec[], params: Params, fixed: readonly string[] = []): ParamCorner[] {
  const corners: ParamCorner[] = [];
  for (const spec of specs) {
    if (fixed.includes(spec.name)) continue;
    const now = params[spec.name];
    const at = (value: ParamValue, where: string) =>
      value !== now && corners.push({ name: spec.name, value, words: `${spec.name} at ${where}, ${formatParam(value)}` });
    if (spec.kind === 'int') {
      at(spec.min, 'its lowest');
      at(spec.max, 'its highest');
    } else if (spec.kind === 'choice') {
      for (const option of spec.options) at(option.value, `'${option.label}'`);
    }
  }
  return corners;
}
