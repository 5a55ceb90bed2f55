// The blocked event loop and each node's clock, drawn from their own facts: the band from
// event-loop-blocked to event-loop-unblocked, the clock line from clock-skewed.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { runOf as run } from './fixtures/build.js';
import { deriveLanes } from './lanes.js';
import { usedShapes } from '../components/timeline/Legend.js';

describe('a blocked event loop', () => {
  const events = run(
    ['worker-1', 'worker-2'],
    [
      [10, 'worker-1', { type: 'work-started', label: 'prepare the statement' }],
      [20, 'worker-1', { type: 'event-loop-blocked', task: 'synchronous task' }],
      [1520, 'worker-1', { type: 'event-loop-unblocked', task: 'synchronous task', blockedMs: 1500 }],
      [1600, 'worker-1', { type: 'work-finished', label: 'prepare the statement' }],
    ],
  );

  it('is a band of its own from the block to its end, beside ordinary work', () => {
    const [w1, w2] = deriveLanes(events);
    expect(w1!.spans.map((s) => [s.kind, s.startMs, s.endMs])).toEqual([
      ['work', 10, 1600],
      ['blocked', 20, 1520],
    ]);
    const band = w1!.spans.find((s) => s.kind === 'blocked')!;
    expect(band.label).toBe("worker-1's event loop blocked from 20 ms");
    expect(band.details).toEqual([
      'synchronous task: event loop blocked',
      'no timer, no I/O callback and no lease renewal can run meanwhile',
      'finished at 1520 ms',
    ]);
    expect(w2!.spans).toEqual([]);
    expect(usedShapes(deriveLanes(events), 0).has('blocked')).toBe(true);
  });

  it('while the loop is still blocked, the band is open; the end closes it (the log folded on)', () => {
    const live = run(['worker-1'], [[20, 'worker-1', { type: 'event-loop-blocked', task: 'synchronous task' }]], false);
    expect(deriveLanes(live)[0]!.spans.map((s) => [s.kind, s.startMs, s.endMs])).toEqual([['blocked', 20, null]]);
    const grown = [
      ...live,
      {
        type: 'event-loop-unblocked',
        task: 'synchronous task',
        blockedMs: 900,
        seq: live.length,
        atMs: 920,
        workerId: 'worker-1',
      } as RunEvent,
    ];
    expect(deriveLanes(grown)[0]!.spans.map((s) => [s.kind, s.startMs, s.endMs])).toEqual([['blocked', 20, 920]]);
  });

  it('a work label that merely mentions the loop is ordinary work', () => {
    const lanes = deriveLanes(run(['worker-1'], [[5, 'worker-1', { type: 'work-started', label: 'measure the event loop' }]]));
    expect(lanes[0]!.spans.map((s) => s.kind)).toEqual(['work']);
    expect(usedShapes(lanes, 0).has('blocked')).toBe(false);
  });
});

describe("the nodes' clocks", () => {
  it('each node that reports its clock shows its offset; the node they are measured against is the reference', () => {
    const lanes = deriveLanes(
      run(
        ['node-1', 'node-2', 'node-3', 'node-4'],
        [
          [400, 'node-2', { type: 'clock-skewed', offsetMs: -400, reference: 'node-1' }],
          [800, 'node-3', { type: 'clock-skewed', offsetMs: 250, reference: 'node-1' }],
        ],
      ),
    );
    expect(lanes.map((l) => l.clock)).toEqual(['clock: reference', 'clock: −400 ms', 'clock: +250 ms', null]);
    const marks = lanes.flatMap((l) => l.marks.filter((m) => m.kind === 'clock'));
    expect(marks.map((m) => [m.major, m.caption, m.label])).toEqual([
      [true, 'clock 400 ms behind node-1', "node-2's clock is 400 ms behind node-1 at 400 ms"],
      [true, 'clock 250 ms ahead of node-1', "node-3's clock is 250 ms ahead of node-1 at 800 ms"],
    ]);
    expect(usedShapes(lanes, 0).has('clock')).toBe(true);
  });

  it('a note about something else draws no clock', () => {
    const lanes = deriveLanes(run(['node-1', 'node-2'], [[5, 'node-2', { type: 'note', text: 'the clock is fine' }]]));
    expect(lanes.map((l) => l.clock)).toEqual([null, null]);
    expect(lanes[1]!.marks.map((m) => m.kind)).toEqual(['note']);
  });
});
