import { describe, expect, it } from 'vitest';
import { anyOpen, clusterInstants, cullInstants, cullIntervals, expectedInstants, RATE_FLOOR, thinIntervals } from './lod.js';

const iv = (id: string, startMs: number, endMs: number | null) => ({ id, startMs, endMs });
const w = { startMs: 0, endMs: 1000 };

describe('level of detail', () => {
  it('leaves out what is outside the window', () => {
    const items = [iv('a', -50, -10), iv('b', -10, 10), iv('c', 500, null), iv('d', 1001, 1100)];
    expect(cullIntervals(items, w).map((i) => i.id)).toEqual(['b', 'c']);
    expect(
      cullInstants(
        [
          { id: 'x', atMs: -3 },
          { id: 'y', atMs: 5 },
        ],
        w,
        2,
      ).map((i) => i.id),
    ).toEqual(['y']);
  });

  it('tells whether a shape drawn is still open (reaches the live edge)', () => {
    expect(anyOpen(thinIntervals([iv('a', 0, 1), iv('b', 2, null)], w, 1000))).toBe(true);
    expect(anyOpen(thinIntervals([iv('a', 0, 1), iv('b', 2, 3)], w, 1000))).toBe(false);
  });

  it('draws every interval under the budget', () => {
    const items = [iv('a', 0, 1), iv('b', 2, 3)];
    expect(thinIntervals(items, w, 1000, 5)).toEqual(items.map((item) => ({ kind: 'one', item })));
  });

  it('groups near neighbours past the budget, keeping open and lone intervals', () => {
    // 1000 px for 1000 ms: gaps under 4 ms join.
    const items = [iv('a', 0, 10), iv('b', 12, 20), iv('c', 21, 30), iv('d', 100, 110), iv('e', 200, null)];
    const out = thinIntervals(items, w, 1000, 2);
    expect(out).toHaveLength(3);
    expect(out).toEqual(
      expect.arrayContaining([
        { kind: 'one', item: items[4] },
        { kind: 'group', id: 'group-a', count: 3, startMs: 0, endMs: 30 },
        { kind: 'one', item: items[3] },
      ]),
    );
  });

  it('clusters instants past the budget', () => {
    const marks = [0, 5, 9, 40, 41, 300].map((atMs, i) => ({ id: `m${i}`, atMs }));
    expect(clusterInstants(marks, w, 1000, 20, 10)).toBeNull();
    const clusters = clusterInstants(marks, w, 1000, 20, 3)!;
    expect(clusters.map((c) => [c.items.length, c.startMs, c.endMs])).toEqual([
      [3, 0, 9],
      [2, 40, 41],
      [1, 300, 300],
    ]);
  });

  it('clusters a lane in progress from its first marks when its rate will pass the budget', () => {
    // 60 marks in the first 100 ms of a 1,000 ms window: 600 by its end, at that rate.
    const marks = Array.from({ length: 60 }, (_, i) => ({ id: `m${i}`, atMs: i * 1.6 }));
    expect(expectedInstants(60, w, 100)).toBe(600);
    expect(clusterInstants(marks, w, 1000, 20, 160)).toBeNull();
    expect(clusterInstants(marks, w, 1000, 20, 160, 100)).not.toBeNull();
    // Finished (no reach), past the window's end, or too few marks to judge a rate by: what it holds.
    expect(expectedInstants(60, w, null)).toBe(60);
    expect(expectedInstants(60, w, 1200)).toBe(60);
    expect(expectedInstants(RATE_FLOOR - 1, w, 10)).toBe(RATE_FLOOR - 1);
    // A slow lane stays drawn mark by mark: 60 marks in 500 ms make 120 by the end.
    expect(clusterInstants(marks, w, 1000, 20, 160, 500)).toBeNull();
  });

  it("judges a running run's whole domain by the horizon it grows to", () => {
    // A 200 ms domain at 500 marks a second holds 100 (under the budget), but the domain
    // grows to 500 ms, where the same rate brings 250: clustered from the first judged marks.
    const first = { startMs: 0, endMs: 200 };
    const marks = Array.from({ length: RATE_FLOOR }, (_, i) => ({ id: `m${i}`, atMs: i * 2 }));
    const reach = RATE_FLOOR * 2;
    expect(expectedInstants(RATE_FLOOR, first, reach)).toBe(100);
    expect(expectedInstants(RATE_FLOOR, first, reach, 500)).toBe(250);
    expect(clusterInstants(marks, first, 1200, 30, 160, reach)).toBeNull();
    expect(clusterInstants(marks, first, 1200, 30, 160, reach, 500)).not.toBeNull();
    // A slow lane stays drawn mark by mark when the domain grows, and a finished run counts what it holds.
    expect(clusterInstants(marks.slice(0, RATE_FLOOR), first, 1200, 30, 160, 190, 500)).toBeNull();
    expect(expectedInstants(RATE_FLOOR, first, null, 500)).toBe(RATE_FLOOR);
    // A window that does not grow is judged by its own end.
    expect(expectedInstants(RATE_FLOOR, first, reach, null)).toBe(100);
  });

  it('keeps 50,000 shapes down to what a screen shows', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => iv(`i${i}`, i * 0.02, i * 0.02 + 0.01));
    const out = thinIntervals(many, w, 1200);
    expect(out.length).toBeLessThan(50);
  });
});
