import { describe, expect, it } from 'vitest';
import { requestPlan } from './requestPlan.js';

describe('requestPlan', () => {
  it('gives server k the requests k, k+S, … in one wave', () => {
    expect(requestPlan(7, 3, 1, 0)).toEqual([[1, 4, 7]]);
    expect(requestPlan(7, 3, 1, 2)).toEqual([[3, 6]]);
  });

  it('serves every request exactly once, over every server and wave', () => {
    for (const [requests, servers, waves] of [
      [50, 3, 4],
      [5000, 16, 20],
      [1, 16, 20],
      [13, 5, 3],
    ] as const) {
      const all = Array.from({ length: servers }, (_, k) => requestPlan(requests, servers, waves, k)).flat(2);
      expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: requests }, (_, i) => i + 1));
    }
  });

  it('splits the requests over the waves in order, about evenly', () => {
    const waves = Array.from({ length: 4 }, (_, w) => [0, 1, 2].flatMap((k) => requestPlan(50, 3, 4, k)[w]!).length);
    expect(waves).toEqual([13, 12, 13, 12]);
  });
});
