import { describe, expect, it } from 'vitest';
import { interleave, rotateAfter, RunQueue, type Place } from './runQueue.js';
import { estimateWaitMs, FIRST_GUESS_MS, RecentDurations } from './waitEstimate.js';

const place = (requestId: string, pageId: string, address = '10.0.0.1'): Place => ({ requestId, pageId, address });
const ids = (queue: RunQueue<Place>) => queue.order().map((p) => p.requestId);

describe('the fair order of the line', () => {
  it('takes one start of each page in turn, whatever order they came in', () => {
    const queue = new RunQueue<Place>();
    for (const p of [place('a1', 'a'), place('a2', 'a'), place('a3', 'a'), place('b1', 'b'), place('c1', 'c'), place('b2', 'b')])
      queue.add(p);
    expect(ids(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('takes one start of each address in turn, however many pages an address has', () => {
    const queue = new RunQueue<Place>();
    for (const p of [place('x1', 'x1', 'crowd'), place('x2', 'x2', 'crowd'), place('x3', 'x3', 'crowd'), place('y1', 'y1', 'alone')])
      queue.add(p);
    expect(ids(queue)).toEqual(['x1', 'y1', 'x2', 'x3']);
  });

  it('turns the round past whoever was served', () => {
    const queue = new RunQueue<Place>();
    for (const p of [place('a1', 'a'), place('a2', 'a'), place('b1', 'b')]) queue.add(p);
    expect(queue.takeNext(() => true)?.requestId).toBe('a1');
    // Page a went last: b goes before a's second.
    expect(ids(queue)).toEqual(['b1', 'a2']);
    queue.add(place('a3', 'a'));
    expect(ids(queue)).toEqual(['b1', 'a2', 'a3']);
  });

  it('skips a place that cannot go now, and it keeps its position', () => {
    const queue = new RunQueue<Place>();
    for (const p of [place('a1', 'a'), place('b1', 'b')]) queue.add(p);
    expect(queue.takeNext((p) => p.requestId !== 'a1')?.requestId).toBe('b1');
    expect(ids(queue)).toEqual(['a1']);
  });

  it('rotates and interleaves', () => {
    expect(rotateAfter(['a', 'b', 'c'], 'b')).toEqual(['c', 'a', 'b']);
    expect(rotateAfter(['a', 'b'], 'z')).toEqual(['a', 'b']);
    expect(interleave([[1, 2, 3], [4], [5, 6]])).toEqual([1, 4, 5, 2, 6, 3]);
  });
});

describe('the estimate of a wait', () => {
  it('is when the slot for that position frees, runs lasting the mean', () => {
    // Two slots, runs going for 1 s and 3 s, runs last 4 s: slots free at 3 s and 1 s.
    expect(estimateWaitMs(0, [1000, 3000], 2, 4000)).toBe(1000);
    expect(estimateWaitMs(1, [1000, 3000], 2, 4000)).toBe(3000);
    expect(estimateWaitMs(2, [1000, 3000], 2, 4000)).toBe(5000);
    expect(estimateWaitMs(3, [1000, 3000], 2, 4000)).toBe(7000);
    // A run past the mean frees its slot any moment now.
    expect(estimateWaitMs(0, [9000], 1, 4000)).toBe(0);
  });

  it('takes the mean of the recent runs, a first guess before any', () => {
    const recent = new RecentDurations();
    expect(recent.meanMs).toBe(FIRST_GUESS_MS);
    recent.add(1000);
    recent.add(3000);
    expect(recent.meanMs).toBe(2000);
    for (let i = 0; i < 20; i++) recent.add(500);
    expect(recent.meanMs).toBe(500);
  });
});
