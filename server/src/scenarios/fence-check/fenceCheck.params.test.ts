// Every fence-check variant against the real Redis and PostgreSQL, at its defaults and at
// other parameters. Each run plays the four orderings; worker-1 is stopped for real
// (SIGSTOP/SIGCONT) at the step each ordering names, and a trigger in PostgreSQL records
// what each check let through, so each verdict is the same on every run.
// This file holds the parameters; fenceCheck.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('fence-check');
const { run } = tested;

const LET = 'let through';

describe('fence-check honours its parameters', () => {
  it('a pause shorter than the lease: nothing is stale, every check passes', async () => {
    const quiet = {
      lateWrite: 'no stale write',
      earlyWrite: 'no stale write',
      checkThenWrite: 'no stale write',
      lateRegistration: 'no stale write',
      orderingsLetThrough: 0,
    };
    // worker-1 wakes within its lease if its steps before the stop, the stop and its wake-up
    // fit in the lease: a real race, so the lease leaves seconds to spare however busy the machine.
    for (const variant of ['none', 'greater-than-in-app']) {
      const { metrics, verdict } = await run(variant, { leaseMs: 5000, pauseMs: 400 });
      expect(metrics, variant).toEqual(quiet);
      expect(verdict).toBe('pass');
    }
  });

  it('other lease and pause lengths tell the same story', async () => {
    const { metrics, events } = await run('equal-lease-id', { leaseMs: 150, pauseMs: 400 });
    expect(metrics).toMatchObject({ lateRegistration: LET, orderingsLetThrough: 1 });
    expect(eventsOf(events, 'process-paused', 'worker-1').map((e) => e.plannedMs)).toEqual([400, 400, 400, 400]);
    // Every lease lived at most 150 ms in Redis: its PTTL as the granting script read it
    // (a millisecond or so may have passed inside the script), and as the server saw it
    // whenever it sampled a lease (a 150 ms key may come and go unseen on a busy machine).
    const granted = eventsOf(events, 'lease-acquired');
    expect(granted).toHaveLength(8);
    for (const e of granted) expect(e.ttlMs).toBeLessThanOrEqual(150);
    const seen = eventsOf(events, 'key-observed').filter((e) => e.key.startsWith('lock:') && e.value !== null);
    expect(seen.length).toBeGreaterThan(0);
    for (const e of seen) expect(e.pttlMs).toBeLessThanOrEqual(150);
    expect((await run('database-guard', { leaseMs: 150, pauseMs: 400 })).metrics.orderingsLetThrough).toBe(0);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'fence-check', variant: 'none', params: { leaseMs: 50 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'leaseMs' must be an integer from 100 to 5000, got 50" });
  });
});
