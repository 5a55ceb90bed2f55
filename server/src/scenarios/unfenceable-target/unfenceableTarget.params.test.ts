// Every unfenceable-target variant against the real Redis, PostgreSQL and file system, at
// its defaults and at other parameters. worker-1 is stopped for real (SIGSTOP/SIGCONT);
// worker-2 moves when the server sees the lease gone; so each verdict is the same on
// every run. The verdict reads the report a reader gets, from the target itself.
// This file holds the parameters; unfenceableTarget.test.ts the defaults. `npm run test:full` runs it.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('unfenceable-target');
const { run } = tested;

const stale = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1', finalFence: 1 };
const refused = { maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2', finalFence: 2 };
const quiet = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-2', finalFence: 2 };

describe('unfenceable-target honours its parameters', () => {
  it('a pause shorter than the lease: no overlap, every target ends with worker-2', async () => {
    for (const variant of ['file-with-token', 'versioned-key', 'fenced-pointer']) {
      const { metrics, verdict } = await run(variant, { pauseMs: 200, leaseMs: 5000 });
      expect(metrics, variant).toEqual(quiet);
      expect(verdict).toBe('pass');
    }
  });

  it('the lease expires during the work, not the pause: the same stale upload', async () => {
    const params = { pauseMs: 300, workMs: 900, leaseMs: 800 };
    expect((await run('file-with-token', params)).metrics).toEqual(stale);
    const { metrics, events } = await run('fenced-pointer', params);
    expect(metrics).toEqual(refused);
    // worker-1's upload comes after worker-2's (held back by the choreography while worker-2
    // had not uploaded yet, which a busy machine may spare).
    const write = (w: string) => events.find((e) => (e.type === 'write-accepted' || e.type === 'write-rejected') && e.workerId === w)!;
    expect(write('worker-1').seq).toBeGreaterThan(write('worker-2').seq);
    const waits = eventsOf(events, 'wait-finished', 'worker-1').map((e) => e.reason);
    expect(waits.every((reason) => /worker-2, the newer holder, uploads first/.test(reason))).toBe(true);
  });

  it('the pause lasts pauseMs and the lease is what Redis holds', async () => {
    const { events, metrics } = await run('versioned-key', { leaseMs: 3000, pauseMs: 4000, workMs: 0 });
    expect(metrics).toEqual(refused);
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(4000);
    const seen = eventsOf(events, 'key-observed').find((e) => e.key === 'lock:report' && e.value !== null)!;
    expect(seen.pttlMs).toBeGreaterThan(2500);
    expect(seen.pttlMs).toBeLessThanOrEqual(3000);
  });

  it("removes the run's upload folder", async () => {
    const prepared = tested.playground.prepare({
      scenario: 'unfenceable-target',
      variant: 'file-with-token',
      params: { pauseMs: 0, workMs: 0 },
    });
    if (!prepared.ok) throw new Error(prepared.error);
    const folders = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`racelab-uploads-${prepared.run.id}-`));
    let during: string[] = [];
    prepared.run.onEvent((e) => {
      if (e.type === 'run-started') during = folders();
    });
    const outcome = await prepared.run.start();
    expect(outcome.status === 'finished' && outcome.metrics).toEqual(quiet);
    expect(during).toHaveLength(1);
    expect(folders()).toEqual([]);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'unfenceable-target', variant: 'file-with-token', params: { pauseMs: 20_000 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'pauseMs' must be an integer from 0 to 15000, got 20000" });
  });
});
