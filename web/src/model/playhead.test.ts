import { describe, expect, it } from 'vitest';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { momentsOf, stepMoment } from './playhead.js';

describe('playhead steps', () => {
  it('stops at worker facts and the end, not at store samples', () => {
    const moments = momentsOf(blindDelRun());
    expect(moments[0]).toBe(1);
    expect(moments).not.toContain(25); // a key-observed sample only
    expect(moments.at(-1)).toBe(1030);
  });

  it('steps forward and back, and stays at the ends', () => {
    const m = [1, 5, 9];
    expect(stepMoment(m, null, 1)).toBe(1);
    expect(stepMoment(m, null, -1)).toBe(9);
    expect(stepMoment(m, 1, 1)).toBe(5);
    expect(stepMoment(m, 6, -1)).toBe(5);
    expect(stepMoment(m, 9, 1)).toBe(9);
    expect(stepMoment(m, 1, -1)).toBe(1);
    expect(stepMoment([], 3, 1)).toBeNull();
  });
});
