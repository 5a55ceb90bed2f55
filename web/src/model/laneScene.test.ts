import { describe, expect, it } from 'vitest';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { deriveLanes } from './lanes.js';
import { groupLabel, laneHeight, laneScene } from './laneScene.js';
import { syntheticRun } from './synthetic.js';
import { truthOf } from './truth.js';

describe('lane scene', () => {
  it('draws a normal run shape by shape', () => {
    const events = blindDelRun();
    const lane = deriveLanes(events)[0]!;
    const scene = laneScene(lane, truthOf(events, 'worker-1'), { startMs: 0, endMs: 1061 }, 1200);
    expect(scene.leases.map((t) => t.kind)).toEqual(['one']);
    expect(scene.stalls).toHaveLength(1);
    expect(scene.truth).toHaveLength(1);
    expect(scene.clusters).toEqual([]);
    expect(scene.majors.map((p) => p.mark.kind)).toEqual(['write-accepted', 'blind-delete']);
    expect(scene.heightPx).toBe(laneHeight(2));
    expect(scene.open).toBe(false); // the run is over: every shape has its end
  });

  it('says when a shape of a run still going reaches the live edge', () => {
    // Cut while worker-1 is stalled, in its work, holding the lease.
    const events = blindDelRun().filter((e) => e.atMs < 100);
    const lane = deriveLanes(events)[0]!;
    expect(laneScene(lane, truthOf(events, 'worker-1'), { startMs: 0, endMs: 200 }, 1200).open).toBe(true);
  });

  it('leaves out what a zoomed-in window does not show', () => {
    const events = blindDelRun();
    const lane = deriveLanes(events)[0]!;
    const scene = laneScene(lane, truthOf(events, 'worker-1'), { startMs: 600, endMs: 700 }, 1200);
    expect(scene.majors).toEqual([]);
    expect(scene.truth).toEqual([]);
    expect(scene.leases).toHaveLength(1); // its zombie window spans 505–803
  });

  it('keeps a 50,000-event lane down to what a screen can draw', () => {
    const events = syntheticRun({ events: 50_000 });
    const lane = deriveLanes(events)[0]!;
    const end = events[events.length - 1]!.atMs;
    const scene = laneScene(lane, truthOf(events, lane.workerId), { startMs: 0, endMs: end }, 1200);
    const drawn =
      scene.leases.length +
      scene.spans.length +
      scene.stalls.length +
      scene.truth.length +
      scene.majors.length +
      scene.minors.length +
      scene.clusters.length;
    expect(drawn).toBeLessThan(600);
    expect(scene.clusters.length).toBeGreaterThan(0);
    expect(scene.clusters[0]!.label).toMatch(/^\d+ events of worker-1 from \d+ ms to [\d.]+ (ms|s)$/);
    const zoomed = laneScene(lane, truthOf(events, lane.workerId), { startMs: 1000, endMs: 1100 }, 1200);
    expect(zoomed.clusters).toEqual([]);
  });

  it('draws a growing lane again with the clusters it already had, and counts the one that grew', () => {
    const events = syntheticRun({ events: 20_000 });
    const w = { startMs: 0, endMs: events[events.length - 1]!.atMs };
    const scene = (log: typeof events) => {
      const lane = deriveLanes(log)[0]!;
      return laneScene(lane, truthOf(log, lane.workerId), w, 1200);
    };
    // Cut inside a cluster: the next version of the log adds marks to it and after it.
    const half = events.slice(0, events.length / 2);
    const before = scene(half);
    const after = scene(events);
    const grown = before.clusters.length - 1;
    expect(grown).toBeGreaterThan(3);
    for (let i = 0; i < grown; i++) expect(after.clusters[i]).toBe(before.clusters[i]);
    const last = after.clusters[grown]!;
    expect(last.id).toBe(before.clusters[grown]!.id);
    expect(last.count).toBeGreaterThanOrEqual(before.clusters[grown]!.count);
    // What each cluster says is what a lane drawn from scratch says.
    expect(after.clusters).toEqual(scene(structuredClone(events)).clusters);
  });

  it('names a group', () => {
    expect(groupLabel('leases', 37, 0, 1500, 'worker-1')).toBe('37 leases of worker-1 from 0 ms to 1500 ms');
  });
});
