// The event-loop-block variants against the real Redis and PostgreSQL, at their defaults
// and at other parameters. worker-1 blocks its own event loop (no signal); worker-2 moves
// when the server sees the lease gone from Redis; so each verdict is the same on every run.
// This file holds the parameters; eventLoopBlock.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('event-loop-block');
const { run } = tested;

const staleLanded = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };
const quiet = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-2' };

describe('event-loop-block honours its parameters', () => {
  it('a block shorter than the lease and work longer than it: only the watchdog keeps the lease', async () => {
    // Wide margins: the lease must survive even when a busy machine delays the process.
    const params = { leaseMs: 2000, blockMs: 500, workMs: 2000 };
    expect((await run('no-watchdog', params)).metrics).toEqual(staleLanded);
    const { metrics, verdict, events } = await run('watchdog', params);
    expect(metrics).toEqual(quiet);
    expect(verdict).toBe('pass');
    // worker-1 released its own lease; worker-2 got it only after.
    const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
    expect(w1Release.deleted).toBe(1);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(w1Release.atMs);
    expect(eventsOf(events, 'note')).toHaveLength(0);
    // The watchdog reported each renewal, and none before the block was over.
    const blockEnd = eventsOf(events, 'event-loop-unblocked', 'worker-1')[0]!;
    const renewals = eventsOf(events, 'lease-expiry-set', 'worker-1');
    expect(renewals.length).toBeGreaterThan(1);
    expect(renewals[0]!.atMs).toBeGreaterThanOrEqual(blockEnd.atMs);
    // And Redis itself shows it: the server saw worker-1's lease get a new expiry after it was set.
    const seen = eventsOf(events, 'key-observed').filter((e) => e.key === 'lock:statement' && e.value?.startsWith('worker-1'));
    expect(seen.length).toBeGreaterThan(1);
  });

  it('a block longer than a renewal period but inside the lease: the watchdog renews it the moment the loop is free', async () => {
    const params = { leaseMs: 3000, blockMs: 2200, workMs: 1500 };
    expect((await run('watchdog', params)).metrics).toEqual(quiet);
    expect((await run('no-watchdog', params)).metrics).toEqual(staleLanded);
  });

  it('a long lease covers the block: every variant passes', async () => {
    for (const variant of ['no-watchdog', 'watchdog', 'watchdog-fenced']) {
      const { metrics, verdict } = await run(variant, { leaseMs: 4000, blockMs: 1000, workMs: 300 });
      expect(metrics).toEqual(quiet);
      expect(verdict).toBe('pass');
    }
  });

  it('a short lease and a long block: the watchdog fails, the fence holds', async () => {
    const params = { leaseMs: 400, blockMs: 900, workMs: 200 };
    expect((await run('watchdog', params)).metrics).toEqual(staleLanded);
    const fenced = await run('watchdog-fenced', params);
    expect(fenced.metrics).toEqual({ maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' });
  });

  it("a block that would end at the lease's edge is played past it: the watchdog is too late every time", async () => {
    const { metrics, events } = await run('watchdog', { leaseMs: 300, blockMs: 295, workMs: 0 });
    expect(metrics).toEqual(staleLanded);
    const [unblocked] = eventsOf(events, 'event-loop-unblocked', 'worker-1');
    expect(unblocked!.blockedMs).toBeGreaterThanOrEqual(350);
    expect(eventsOf(events, 'note', 'worker-1').map((e) => e.text)).toContainEqual(
      expect.stringMatching(/^choreography: the block would end 5 ms before/),
    );
  });

  it('no block and short work: even without a watchdog nothing goes wrong', async () => {
    const { metrics, events } = await run('no-watchdog', { blockMs: 0, workMs: 300, leaseMs: 5000 });
    expect(metrics).toEqual(quiet);
    expect(eventsOf(events, 'event-loop-blocked')).toHaveLength(0);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'event-loop-block', variant: 'watchdog', params: { leaseMs: 100 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'leaseMs' must be an integer from 300 to 10000, got 100" });
  });
});
