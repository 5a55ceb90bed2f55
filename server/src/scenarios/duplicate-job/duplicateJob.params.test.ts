// Every duplicate-job variant against the real Redis and PostgreSQL, at its defaults and
// at other parameters. Races are choreographed by the scenario (barriers, latches set
// by what Redis holds, real SIGKILL), so each verdict is the same on every run.
// This file holds the parameters; duplicateJob.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('duplicate-job');
const { run } = tested;

describe('duplicate-job honours its parameters', () => {
  it('no-lock sends one e-mail per worker, whatever the count', async () => {
    expect((await run('no-lock', { workers: 7 })).metrics.emailsSent).toBe(7);
    const single = await run('no-lock', { workers: '1' });
    expect(single.metrics.emailsSent).toBe(1);
    expect(single.verdict).toBe('pass');
  });

  it('token-lua sends one e-mail among 12 workers', async () => {
    const { metrics } = await run('token-lua', { workers: 12 });
    expect(metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
  });

  it('token-lua under an overrun: the late release deletes nothing and no third worker gets in', async () => {
    const { metrics, events } = await run('token-lua', { arrival: 'late', leaseMs: 1500, workMs: 2000 });
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
    expect(eventsOf(events, 'job-skipped', 'worker-3')).toHaveLength(1);
    // The lease still could not stop worker-2 from running beside worker-1: two e-mails.
    expect(metrics).toMatchObject({ emailsSent: 2, maxConcurrentHolders: 2 });
  });

  it('a lock library that does not renew, its work outlasting its lease: with nobody arriving after the lapse, one e-mail, as the run expects', async () => {
    // Arriving together, every container tries while the first holds the lock; alone, there is nobody else.
    for (const params of [
      { workers: 3, arrival: 'together', workMs: 500, leaseMs: 100 },
      { workers: 1, arrival: 'late', workMs: 600, leaseMs: 100 },
    ]) {
      const played = await run('lib-redlock', params);
      expect(played.metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
      expect(played.verdict).toBe('pass');
      expect(played.outcome.status === 'finished' && played.outcome.expected).toEqual({ verdict: 'pass' });
    }
  }, 60_000);

  it("a lock that never lapses, worker-1's fetch lasting two leases: worker-2's lock is still there when the rest fire", async () => {
    const params = { workers: 3, arrival: 'late', failure: 'first-fails', leaseMs: 500, workMs: 1200 };
    for (const variant of ['lib-redis-semaphore-mutex', 'lib-advisory-lock']) {
      const played = await run(variant, params);
      expect(played.metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
      expect(played.outcome.status === 'finished' && played.outcome.expected).toEqual({ verdict: 'pass' });
      expect(eventsOf(played.events, 'job-skipped').map((e) => e.workerId)).toEqual(['worker-3']);
    }
    // A lease that lapses lets worker-3 in, as the run expects.
    const lapsing = await run('lib-redlock', params);
    expect(lapsing.metrics).toMatchObject({ emailsSent: 2 });
    expect(lapsing.outcome.status === 'finished' && lapsing.outcome.expected).toMatchObject({ verdict: 'fail' });
  }, 60_000);

  it("arriving late, worker-1's fetch failing: the rest find worker-2's lock when it has 250 ms or more left, else let it lapse and take it in turn", async () => {
    // worker-2's lease has 300 ms left when the rest fire (its lock taken at 1 s, worker-1 done at 1.7 s).
    const found = await run('token-lua', { workers: 3, arrival: 'late', failure: 'first-fails', leaseMs: 1000, workMs: 1700 });
    expect(found.metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
    expect(found.outcome.status === 'finished' && found.outcome.expected).toEqual({ verdict: 'pass' });
    // A 100 ms lease: too short to count on; the rest let it lapse, then go one after another.
    const lapsed = await run('token-lua', { workers: 4, arrival: 'late', failure: 'first-fails', leaseMs: 100, workMs: 0 });
    expect(lapsed.metrics).toMatchObject({ emailsSent: 3, maxConcurrentHolders: 2 });
    expect(lapsed.outcome.status === 'finished' && lapsed.outcome.expected).toMatchObject({ verdict: 'fail' });
    expect(
      eventsOf(lapsed.events, 'write-accepted')
        .map((e) => e.workerId)
        .sort(),
    ).toEqual(['worker-2', 'worker-3', 'worker-4']);
    expect(
      eventsOf(lapsed.events, 'wait-started')
        .map((e) => [e.workerId, e.reason])
        .sort(),
    ).toEqual([
      ['worker-3', "choreography: worker-2's lease has 100 ms left (less than 250 ms), let it lapse"],
      ['worker-4', "choreography: worker-2's lease has 100 ms left (less than 250 ms), let it lapse"],
    ]);
  }, 60_000);

  it('blind-del with a lease longer than the work never has two holders', async () => {
    const { metrics } = await run('blind-del', { leaseMs: 5000, workMs: 100 });
    expect(metrics.maxConcurrentHolders).toBe(1);
  });

  it('setnx-no-expiry skips on every other worker', async () => {
    const { metrics, events } = await run('setnx-no-expiry', { workers: 5 });
    expect(metrics).toMatchObject({ emailsSent: 0, lockTtlAfterRunMs: -1 });
    expect(eventsOf(events, 'job-skipped')).toHaveLength(4);
  });

  it('the lease length is what Redis holds, and the work lasts workMs', async () => {
    const { events } = await run('token-lua', { leaseMs: 5000, workMs: 300 });
    expect(eventsOf(events, 'lease-acquired')[0]?.ttlMs).toBe(5000);
    const seen = eventsOf(events, 'key-observed').find((e) => e.value !== null)!;
    expect(seen.pttlMs).toBeGreaterThan(4000);
    expect(seen.pttlMs).toBeLessThanOrEqual(5000);
    const started = eventsOf(events, 'work-started')[0]!;
    const finished = eventsOf(events, 'work-finished')[0]!;
    expect(finished.atMs - started.atMs).toBeGreaterThanOrEqual(300);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'duplicate-job', variant: 'no-lock', params: { workers: 21 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'workers' must be an integer from 1 to 20, got 21" });
  });
});
