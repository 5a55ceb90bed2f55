// The corners of a scenario's parameters the explorer starts from: each at a bound, one at a time.
import { describe, expect, it } from 'vitest';
import type { ParamSpec } from '@racelab/shared';
import { paramCorners } from './corners.js';

const stock: ParamSpec = { kind: 'int', name: 'initialStock', label: 'Initial stock', help: '', min: 0, max: 100_000, default: 10 };
const sales: ParamSpec = {
  kind: 'int-list',
  name: 'sales',
  label: 'Sales',
  help: '',
  min: 1,
  max: 1000,
  minItems: 1,
  maxItems: 20,
  default: [3, 2],
};
const mode: ParamSpec = {
  kind: 'choice',
  name: 'mode',
  label: 'Mode',
  help: '',
  options: [
    { value: 'a', label: 'A' },
    { value: 'b', label: 'B' },
  ],
  default: 'a',
};

describe('corners of the parameters', () => {
  it('moves each number to its lowest and highest and each choice to its other options, one at a time', () => {
    const corners = paramCorners([stock, sales, mode], { initialStock: 10, sales: [3, 2], mode: 'a' });
    expect(corners.map((c) => c.words)).toEqual(['initialStock at its lowest, 0', 'initialStock at its highest, 100000', "mode at 'B', b"]);
  });

  it('leaves out a bound the value is at already, and the parameters the caller gave', () => {
    expect(paramCorners([stock], { initialStock: 0 }).map((c) => c.value)).toEqual([100_000]);
    expect(paramCorners([stock, mode], { initialStock: 10, mode: 'a' }, ['initialStock'])).toEqual([
      { name: 'mode', value: 'b', words: "mode at 'B', b" },
    ]);
  });
});
