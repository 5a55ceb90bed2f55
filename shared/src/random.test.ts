import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.js';

describe('seededRandom', () => {
  const take = (seed: number, n: number) => {
    const next = seededRandom(seed);
    return Array.from({ length: n }, next);
  };

  it('gives the same sequence for the same seed, and another for another seed', () => {
    expect(take(7, 50)).toEqual(take(7, 50));
    expect(take(7, 50)).not.toEqual(take(8, 50));
  });

  it('stays in [0, 1) and spreads over it', () => {
    const values = take(1, 10_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const tenths = new Array(10).fill(0);
    for (const v of values) tenths[Math.floor(v * 10)]++;
    for (const count of tenths) expect(count).toBeGreaterThan(900);
  });
});
