// Recordings made before event-loop-blocked and clock-skewed existed still show the band and
// the clocks: their old form draws the same lanes as the typed facts do.
import { describe, expect, it } from 'vitest';
import { runOf as run } from './fixtures/build.js';
import { deriveLanes, type Lane } from './lanes.js';
import { oldBlockTask, oldClockNote } from './oldEventForms.js';

/** What a lane draws, without ids (they carry seq numbers) or the marks' words. */
const drawn = (lanes: Lane[]) =>
  lanes.map((l) => ({
    clock: l.clock,
    spans: l.spans.map((s) => [s.kind, s.startMs, s.endMs, s.label, s.details]),
    marks: l.marks.map((m) => [m.kind, m.atMs, m.major, m.caption]),
  }));

describe('old event forms', () => {
  it('an old work span that said the loop was blocked is the band', () => {
    const label = 'synchronous task: event loop blocked';
    const old = run(
      ['worker-1'],
      [
        [20, 'worker-1', { type: 'work-started', label }],
        [1520, 'worker-1', { type: 'work-finished', label }],
      ],
    );
    const typed = run(
      ['worker-1'],
      [
        [20, 'worker-1', { type: 'event-loop-blocked', task: 'synchronous task' }],
        [1520, 'worker-1', { type: 'event-loop-unblocked', task: 'synchronous task', blockedMs: 1500 }],
      ],
    );
    expect(drawn(deriveLanes(old))).toEqual(drawn(deriveLanes(typed)));
    expect(deriveLanes(old)[0]!.spans.map((s) => s.kind)).toEqual(['blocked']);
  });

  it("an old note about a node's clock is that node's clock", () => {
    const old = run(
      ['node-1', 'node-2'],
      [[1100, 'node-2', { type: 'note', text: "node-2's clock is 1000 ms behind node-1's: to it, the slot starts now" }]],
    );
    const typed = run(['node-1', 'node-2'], [[1100, 'node-2', { type: 'clock-skewed', offsetMs: -1000, reference: 'node-1' }]]);
    expect(drawn(deriveLanes(old))).toEqual(drawn(deriveLanes(typed)));
    expect(deriveLanes(old).map((l) => l.clock)).toEqual(['clock: reference', 'clock: −1000 ms']);
  });

  it('reads only the old wording', () => {
    expect(oldBlockTask('synchronous task: event loop blocked')).toBe('synchronous task');
    expect(oldBlockTask('prepare the statement')).toBeNull();
    expect(oldClockNote("node-3's clock is 250 ms ahead of node-1's")).toEqual({ offsetMs: 250, reference: 'node-1' });
    expect(oldClockNote('watchdog: the lease was gone when it could renew it')).toBeNull();
  });
});
