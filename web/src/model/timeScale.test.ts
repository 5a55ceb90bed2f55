import { describe, expect, it } from 'vitest';
import { formatMs, makeScale, niceCeil, ticks, timeToX, xToTime } from './timeScale.js';

describe('timeScale', () => {
  it('maps the domain onto the width and back', () => {
    const s = makeScale(0, 2000, 100);
    expect(timeToX(0, s)).toBe(0);
    expect(timeToX(500, s)).toBe(25);
    expect(timeToX(2000, s)).toBe(100);
    for (const ms of [0, 13, 777, 1999.5]) expect(xToTime(timeToX(ms, s), s)).toBeCloseTo(ms, 9);
  });

  it('handles an offset domain and a pixel width', () => {
    const s = makeScale(100, 300, 800);
    expect(timeToX(200, s)).toBe(400);
    expect(xToTime(800, s)).toBe(300);
  });

  it('never divides by zero', () => {
    const s = makeScale(50, 50);
    expect(Number.isFinite(timeToX(50, s))).toBe(true);
  });

  it('rounds up to 1, 2, 5 × 10^k', () => {
    expect(niceCeil(0.3)).toBeCloseTo(0.5);
    expect(niceCeil(1)).toBe(1);
    expect(niceCeil(101)).toBe(200);
    expect(niceCeil(250)).toBe(500);
    expect(niceCeil(600)).toBe(1000);
    expect(niceCeil(0)).toBe(1);
  });

  it('places ticks on a nice step within the domain', () => {
    expect(ticks(makeScale(0, 1000), 5)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(ticks(makeScale(0, 1234), 6)).toEqual([0, 500, 1000]);
  });

  it('formats run times', () => {
    expect(formatMs(131.4)).toBe('131 ms');
    expect(formatMs(12_500)).toBe('12.5 s');
  });
});
