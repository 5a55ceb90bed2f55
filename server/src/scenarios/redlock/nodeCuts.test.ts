// What a redlock worker knows of a node's isolations: it follows the run's latches round by
// round (the run's own coordinator sets them here, as it does for a run), cuts its own link
// first at each, and a request's timeout counts only while the node is cut.
import { describe, expect, it } from 'vitest';
import { Coordinator } from '../../runs/coordinator.js';
import { isolatedLatch, rejoinedLatch } from '../../worker/latches.js';
import { NodeCuts } from './redlockJob.js';

/** Resolves once every callback already due has run (the latches travel through promises). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a worker's view of a node's cuts", () => {
  it('follows isolation and rejoin round after round, its link first at each, and never skips a round', async () => {
    const coordinator = new Coordinator(['worker-1'], []);
    const seen: string[] = [];
    const cuts = new NodeCuts({ waitFor: (...names) => coordinator.waitFor(names) }, 'node-4', (cut) =>
      seen.push(cut ? 'link cut' : 'link back'),
    );
    cuts.follow((cut) => seen.push(cut ? 'cut' : 'not cut'));
    expect(seen).toEqual(['not cut']); // told at once how it is now
    seen.length = 0;
    // A latch of a later round does nothing before its own round comes.
    coordinator.signal(isolatedLatch('node-4', 2));
    await settle();
    expect(seen).toEqual([]);
    coordinator.signal(isolatedLatch('node-4', 1));
    await settle();
    expect(cuts.cut).toBe(true);
    coordinator.signal(rejoinedLatch('node-4', 1));
    await settle();
    // Round 2's isolation was already set: the worker takes it as soon as round 1 is over.
    expect(seen).toEqual(['link cut', 'cut', 'link back', 'not cut', 'link cut', 'cut']);
    coordinator.signal(rejoinedLatch('node-4', 2));
    await settle();
    expect(cuts.cut).toBe(false);
    expect(seen.slice(6)).toEqual(['link back', 'not cut']);
  });

  it("one who follows while the node is cut (a library's connections, made late) is told so at once", async () => {
    const coordinator = new Coordinator(['worker-1'], []);
    const cuts = new NodeCuts({ waitFor: (...names) => coordinator.waitFor(names) }, 'node-4');
    coordinator.signal(isolatedLatch('node-4', 1));
    await settle();
    const seen: boolean[] = [];
    cuts.follow((cut) => seen.push(cut));
    coordinator.signal(rejoinedLatch('node-4', 1));
    await settle();
    expect(seen).toEqual([true, false]);
  });

  it('whenCut resolves at once while the node is cut, else at its next isolation', async () => {
    const coordinator = new Coordinator(['worker-1'], []);
    const cuts = new NodeCuts({ waitFor: (...names) => coordinator.waitFor(names) }, 'node-4');
    let first = false;
    void cuts.whenCut().then(() => (first = true));
    await settle();
    expect(first).toBe(false);
    coordinator.signal(isolatedLatch('node-4', 1));
    await settle();
    expect(first).toBe(true);
    await expect(cuts.whenCut()).resolves.toBeUndefined();
    coordinator.signal(rejoinedLatch('node-4', 1));
    await settle();
    let second = false;
    void cuts.whenCut().then(() => (second = true));
    await settle();
    expect(second).toBe(false);
    coordinator.signal(isolatedLatch('node-4', 2));
    await settle();
    expect(second).toBe(true);
  });
});
