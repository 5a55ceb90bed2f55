// Both fencing variants against the real Redis and PostgreSQL, at their defaults and at
// other parameters. worker-1 is stopped for real (SIGSTOP/SIGCONT); worker-2 moves when
// the server sees the lease gone from Redis; so each verdict is the same on every run.
// This file holds the parameters; fencing.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('fencing');
const { run } = tested;

const overlap = { maxConcurrentHolders: 2, finalFence: 2, finalWriter: 'worker-2' };

describe('fencing honours its parameters', () => {
  it('a pause that ends inside the lease: no overlap, no stale write, both variants pass', async () => {
    const quiet = { ...overlap, maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0 };
    for (const variant of ['lease-only', 'fenced']) {
      const { metrics, verdict, events } = await run(variant, { leaseMs: 5000, pauseMs: 200 }); // seconds to spare however busy the machine
      expect(metrics).toEqual(quiet);
      expect(verdict).toBe('pass');
      // worker-2 got the lease only after worker-1 had written and released it.
      const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
      expect(w1Release.deleted).toBe(1);
      expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(w1Release.atMs);
    }
  });

  it('the lease expires during the work after a short pause: worker-1 still writes last', async () => {
    const params = { pauseMs: 600, workMs: 800 };
    const broken = await run('lease-only', params);
    expect(broken.metrics).toMatchObject({ maxConcurrentHolders: 2, staleWritesAccepted: 1, finalWriter: 'worker-1' });
    const { metrics, events } = await run('fenced', params);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    // worker-1 finished its work first; its write still comes after worker-2's (held back by
    // the choreography while worker-2 had not written yet, which a busy machine may spare).
    const write = (w: string) => events.find((e) => (e.type === 'write-accepted' || e.type === 'write-rejected') && e.workerId === w)!;
    expect(write('worker-1').seq).toBeGreaterThan(write('worker-2').seq);
    const waits = eventsOf(events, 'wait-finished', 'worker-1').map((e) => e.reason);
    expect(waits.every((reason) => /worker-2, the newer holder, writes first/.test(reason))).toBe(true);
  });

  it('a short lease: worker-2 writes after its own lease expired, which is not stale', async () => {
    const params = { leaseMs: 200, pauseMs: 1000, workMs: 500 };
    const { metrics } = await run('fenced', params);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    const broken = await run('lease-only', params);
    expect(broken.metrics).toEqual({ ...overlap, staleWritesAccepted: 1, staleWritesRejected: 0, finalFence: 1, finalWriter: 'worker-1' });
  });

  it('the pause lasts pauseMs and the lease is what Redis holds', async () => {
    const { events } = await run('fenced', { leaseMs: 3000, pauseMs: 4000, workMs: 100 });
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(4000);
    const seen = eventsOf(events, 'key-observed').find((e) => e.key === 'lock:document' && e.value !== null)!;
    expect(seen.pttlMs).toBeGreaterThan(2500);
    expect(seen.pttlMs).toBeLessThanOrEqual(3000);
    const started = eventsOf(events, 'work-started', 'worker-2')[0]!;
    const finished = eventsOf(events, 'work-finished', 'worker-2')[0]!;
    expect(finished.atMs - started.atMs).toBeGreaterThanOrEqual(100);
  });

  it("a pause that would end at the lease's edge is played past it: the stale write lands every time", async () => {
    // 5 ms before the lease's end: the grant's own round trips would decide it. Played to 50 ms past.
    const { metrics, verdict, events } = await run('lease-only', { leaseMs: 300, pauseMs: 295, workMs: 0 });
    expect(verdict).toBe('fail');
    expect(metrics).toMatchObject({ maxConcurrentHolders: 2, staleWritesAccepted: 1, finalWriter: 'worker-1' });
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(350);
    expect(eventsOf(events, 'note', 'worker-1').map((e) => e.text)).toContainEqual(
      expect.stringMatching(/^choreography: the pause and work would end 5 ms before/),
    );
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'fencing', variant: 'fenced', params: { leaseMs: 50 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'leaseMs' must be an integer from 100 to 10000, got 50" });
  });
});
