import { describe, expect, it } from 'vitest';
import { speedWords } from './speed.js';
import { SPEEDS } from './urlState.js';

describe('speedWords', () => {
  it('says how much slower or faster, and what a second on screen stands for, in one unit', () => {
    expect(speedWords(0.25)).toBe('4× slower (1 s shown = 250 ms real)');
    expect(speedWords(0.5)).toBe('2× slower (1 s shown = 500 ms real)');
    expect(speedWords(0.75)).toBe('1.33× slower (1 s shown = 750 ms real)');
    expect(speedWords(1)).toBe('1× (real time)');
    expect(speedWords(1.5)).toBe('1.5× faster (1 s shown = 1.5 s real)');
    expect(speedWords(2)).toBe('2× faster (1 s shown = 2 s real)');
  });

  it('never writes a long fraction for any offered speed', () => {
    for (const s of SPEEDS) expect(speedWords(s)).not.toMatch(/\d\.\d{3,}/);
  });
});
