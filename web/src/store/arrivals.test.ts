import type { RunEvent } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { createArrivals } from './arrivals.js';

const notes = (from: number, n: number): RunEvent[] =>
  Array.from({ length: n }, (_, i) => ({ seq: from + i, atMs: from + i, workerId: 'worker-1', type: 'note', text: `#${from + i}` }));
const seqs = (events: readonly RunEvent[]) => events.map((e) => e.seq);

describe('arrivals', () => {
  it('draws held and folded events until the timeline has drawn them from the log', () => {
    const a = createArrivals();
    let changes = 0;
    a.subscribe(() => changes++);
    a.hold('r', notes(1, 3));
    a.hold('r', notes(1, 5)); // the held batch grew
    expect(seqs(a.of('r'))).toEqual([1, 2, 3, 4, 5]);
    a.folded('r', notes(1, 6));
    a.hold('r', notes(7, 2));
    expect(seqs(a.of('r'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    a.drawnThrough('r', 4);
    expect(seqs(a.of('r'))).toEqual([5, 6, 7, 8]);
    const before = changes;
    a.drawnThrough('r', 3); // already gone: nothing changes, nobody is told
    expect(changes).toBe(before);
    a.drawnThrough('r', 6);
    expect(seqs(a.of('r'))).toEqual([7, 8]);
    a.drawnThrough('r', 8); // the held ones wait for their log
    expect(seqs(a.of('r'))).toEqual([7, 8]);
    a.folded('r', notes(7, 2));
    a.drawnThrough('r', 8);
    expect(a.of('r')).toEqual([]);
  });

  it("keeps no more than the last second of a run's events that the timeline does not draw", () => {
    const a = createArrivals();
    for (let fold = 0; fold < 30; fold++) a.folded('unseen', notes(fold * 100, 100));
    // The folds that end within 1 s (of run time) of the newest event: 1900..2999.
    expect(seqs(a.of('unseen'))).toEqual(seqs(notes(1900, 1100)));
    a.clear('unseen');
    expect(a.of('unseen')).toEqual([]);
  });
});
