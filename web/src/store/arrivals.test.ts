// The arrivals as the one owner of a run's events between the socket and the drawn log: into
// the log once per frame, drawn as ticks until the timeline says it drew them, told to the tick
// worker. (The socket's side, and a fast run held from its log, are in ../socket/client.test.ts.)
import type { RunEvent } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { createAppStore } from './index.js';
import { createArrivals } from './arrivals.js';
import { KEPT_MS } from '../ticks/tickBoard.js';

const note = (seq: number, atMs = seq): RunEvent => ({ seq, atMs, workerId: 'worker-1', type: 'note', text: `#${seq}` });

function harness() {
  const store = createAppStore();
  store.setState({ shown: ['r'] });
  const frames: (() => void)[] = [];
  const told: string[] = [];
  const arrivals = createArrivals({
    store,
    now: () => 0,
    setTimer: () => 0,
    clearTimer: () => {},
    requestFrame: (fn) => frames.push(fn),
    cancelFrame: () => {},
    ticks: () => ({
      drawnThrough: (runId, seq) => told.push(`${runId} drawn through ${seq}`),
      forget: (runId) => told.push(`forget ${runId}`),
    }),
  });
  const frame = () => frames.splice(0).forEach((fn) => fn());
  const logged = () => (store.getState().runs['r']?.events ?? []).map((e) => e.seq);
  const undrawn = (runId = 'r') => arrivals.lane(runId, 'worker-1').map((t) => t.seq);
  return { store, arrivals, frame, logged, undrawn, told };
}

describe('arrivals', () => {
  it("put a run's events into its log in the next frame, and draw them as ticks until the timeline has drawn them from it", () => {
    const h = harness();
    let changes = 0;
    h.arrivals.subscribe(() => changes++);
    for (const seq of [0, 1, 2]) h.arrivals.arrived('r', note(seq));
    expect(h.logged()).toEqual([]);
    h.frame();
    expect(h.logged()).toEqual([0, 1, 2]);
    expect(h.undrawn()).toEqual([0, 1, 2]);
    h.arrivals.drawnThrough('r', 1);
    expect(h.undrawn()).toEqual([2]);
    const before = changes;
    h.arrivals.drawnThrough('r', 0); // already gone: nothing changes, nobody is told here
    expect(changes).toBe(before);
    // The tick worker hears what the lanes drew, each time.
    expect(h.told).toEqual(['r drawn through 1', 'r drawn through 0']);
    h.arrivals.drawnThrough('r', 2);
    expect(h.undrawn()).toEqual([]);
  });

  it('settle: everything that arrived goes into the logs at once, a run that ended off screen is forgotten', () => {
    const h = harness();
    h.arrivals.arrived('r', note(0));
    h.arrivals.settle();
    expect(h.logged()).toEqual([0]);
    h.arrivals.arrived('gone', note(0));
    h.arrivals.arrived('gone', { seq: 1, atMs: 1, workerId: null, type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' });
    h.frame();
    h.frame(); // the end waits for the frame after its events
    expect(h.undrawn('gone')).toEqual([]);
    expect(h.told).toEqual(['forget gone']);
  });

  it("keeps no more than the last KEPT_MS of a run's events that the timeline does not draw", () => {
    const h = harness();
    // As fast as a stress run: held from the log until settled, drawn meanwhile.
    for (let seq = 0; seq < 3000; seq++) h.arrivals.arrived('r', note(seq));
    h.frame();
    expect(h.logged()).toHaveLength(0);
    h.arrivals.settle();
    expect(h.logged()).toHaveLength(3000);
    expect(h.undrawn()).toEqual(Array.from({ length: KEPT_MS + 1 }, (_, i) => 2999 - KEPT_MS + i));
  });
});
