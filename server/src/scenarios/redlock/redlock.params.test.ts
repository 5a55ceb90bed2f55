// Both redlock variants against five real redis-servers started for each run, the real
// main Redis and PostgreSQL, at their defaults and at other parameters. worker-1 is
// stopped for real (SIGSTOP/SIGCONT), node-3's clock jump moves its redis-server's own wall
// clock (the wall clock shim; without it, its key's expiry), and a node out of reach is a
// real silent socket; so each verdict is the same on every run.
// This file holds the parameters; redlock.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { HAND_WRITTEN_ASKING, passesInsideLock } from './variants/redlock.js';
import { renewalAtTheEdge } from './lockLeft.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('redlock');
const { run } = tested;

const stale = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };
const quiet = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-2' };
const notes = (events: Parameters<typeof eventsOf>[0], workerId: string) => eventsOf(events, 'note', workerId).map((e) => e.text);

describe('redlock honours its parameters', () => {
  it('a pause shorter than the lease: no second holder, both variants pass', async () => {
    // worker-1 writes within its lock if the pause, the work and its own steps fit in the
    // lease: a real race, so the lease leaves seconds to spare.
    for (const variant of ['redlock', 'redlock-fenced']) {
      const { metrics, verdict } = await run(variant, { pauseMs: 200, leaseMs: 5000 });
      expect(metrics).toEqual(quiet);
      expect(verdict).toBe('pass');
    }
  });

  it('a split network with the pause: three nodes each, node-3 shared, and the per-node timeouts eat into the validity', async () => {
    const { metrics, events } = await run('redlock', { reach: 'split', leaseMs: 2000, pauseMs: 3000, workMs: 100 });
    expect(metrics).toEqual(stale);
    const acquired = eventsOf(events, 'lease-acquired');
    expect(acquired).toHaveLength(2);
    // Two silent nodes at 100 ms each, and a 22 ms drift allowance, come off the 2000 ms lease.
    for (const e of acquired) expect(e.ttlMs).toBeLessThanOrEqual(2000 - 200 - 22);
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(3000);
  });

  it("in a split, worker-1's asking of the nodes out of reach comes off the lock: a pause that fits the lease alone does not", async () => {
    // 1000 ms on node-3, less 200 ms asking nodes 4 and 5 in turn: 850 ms is past what is left.
    expect(passesInsideLock({ reach: 'split', leaseMs: 1000, pauseMs: 850, workMs: 0, clockJumpMs: 0 }, HAND_WRITTEN_ASKING)).toBeNull();
    const { metrics, events } = await run('redlock', { reach: 'split', leaseMs: 1000, pauseMs: 850, workMs: 0 });
    expect(metrics).toEqual(stale);
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(850);
    // 750 ms would end 50 ms before the 800 left, inside the lab's 100 ms edge: played to 100 ms past.
    const edge = await run('redlock', { reach: 'split', leaseMs: 1000, pauseMs: 750, workMs: 0 });
    expect(edge.metrics).toEqual(stale);
    expect(eventsOf(edge.events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(900);
    expect(notes(edge.events, 'worker-1')).toContainEqual(
      expect.stringMatching(/^choreography: the pause and work would end 50 ms before/),
    );
  });

  it('what is left of the lock depends on how the client asks, with an edge of 100 ms', () => {
    const split = (pauseMs: number) => ({ reach: 'split', leaseMs: 1000, pauseMs, workMs: 0, clockJumpMs: 0 });
    for (const [asks, lastInside] of [
      ['in-turn', 700],
      ['all-at-once', 800],
      ['until-majority', 900],
    ] as const) {
      expect(passesInsideLock(split(lastInside), { asks, renews: false })).toMatch(/100 ms or more inside/);
      expect(passesInsideLock(split(lastInside + 1), { asks, renews: false })).toBeNull();
    }
    // Every node in reach: the deciding node is asked last and keeps the whole lease.
    expect(passesInsideLock({ ...split(900), reach: 'all' }, HAND_WRITTEN_ASKING)).not.toBeNull();
    // A lock that renews needs only its pause inside, when its first renewal (at 80 % of the
    // lease) comes in time; after a clock jump it may not, and its work counts again.
    const renewing = { asks: 'all-at-once', renews: true } as const;
    expect(passesInsideLock({ ...split(800), workMs: 2000 }, renewing)).toMatch(/renews itself in time/);
    expect(passesInsideLock({ ...split(300), workMs: 2000, clockJumpMs: 200 }, renewing)).toBeNull();
    expect(passesInsideLock({ ...split(300), workMs: 200, clockJumpMs: 200 }, renewing)).toMatch(/pause and work \(300 \+ 200 ms\)/);
    expect(passesInsideLock({ ...split(200), clockJumpMs: 500 }, HAND_WRITTEN_ASKING)).toMatch(/clock jump \(300 ms\)/);
  });

  it("a lock that renews is refused a lease whose first renewal would come within 50 ms of the lock's end on node-3, where that decides the verdict", () => {
    const renewing = { asks: 'all-at-once', renews: true } as const;
    // 590 ms less 100 ms asking: the lock ends 490 ms after the grant, the renewal is due at 472.
    const edge = { reach: 'split', leaseMs: 590, pauseMs: 200, workMs: 500, clockJumpMs: 0 };
    const refusal =
      'RedlockMutex would renew its lock 18 ms before it ends on node-3 (490 ms after the grant), less than 50 ms either way, and the verdict turns on it: whether the renewal lands in time would be luck. Use a lease of 750 ms or more, or a clock jump of 68 ms or more.';
    expect(renewalAtTheEdge(edge, renewing, 'RedlockMutex')).toBe(refusal);
    expect(tested.playground.prepare({ scenario: 'redlock', variant: 'lib-redis-semaphore-redlock-mutex', params: edge })).toEqual({
      ok: false,
      error: refusal.replace('RedlockMutex', 'redis-semaphore (RedlockMutex)'),
    });
    // Either way by 50 ms: renewed in time (pass), or the key gone first, and the work counts (fail).
    expect(renewalAtTheEdge({ ...edge, leaseMs: 750 }, renewing, 'RedlockMutex')).toBeNull();
    expect(passesInsideLock({ ...edge, leaseMs: 750 }, renewing)).toMatch(/renews itself in time/);
    expect(renewalAtTheEdge({ ...edge, clockJumpMs: 68 }, renewing, 'RedlockMutex')).toBeNull();
    expect(passesInsideLock({ ...edge, clockJumpMs: 68 }, renewing)).toBeNull();
    // Where the pause and work fit anyway, or the pause does not, the renewal decides nothing.
    expect(renewalAtTheEdge({ ...edge, workMs: 0 }, renewing, 'RedlockMutex')).toBeNull();
    expect(renewalAtTheEdge({ ...edge, pauseMs: 450 }, renewing, 'RedlockMutex')).toBeNull();
    // Every node in reach, nothing comes off the lock: 20 % of it is always 100 ms or more.
    expect(renewalAtTheEdge({ ...edge, reach: 'all', leaseMs: 500 }, renewing, 'RedlockMutex')).toBeNull();
    // A lock that does not renew is never refused for it.
    expect(renewalAtTheEdge(edge, HAND_WRITTEN_ASKING, 'Redlock')).toBeNull();
  });

  it("logs until when a majority holds each worker's token, from the nodes' own expiries: a renewing library's hold grows, a plain grant's runs out", async () => {
    /** Where each `lock-held` of the worker's token says a majority's hold ends, on the run's clock. */
    const holdEnds = (events: Parameters<typeof eventsOf>[0], workerId: string) => {
      const token = eventsOf(events, 'lease-acquired', workerId)[0]!.token;
      return eventsOf(events, 'lock-held')
        .filter((e) => e.token === token)
        .map((e) => e.atMs + e.pttlMs);
    };
    // RedlockMutex renews 80 % into a 1,500 ms lease: worker-1's 200 ms stop and 1,200 ms of
    // work outlast its first hold by far, and the renewal carries the lock past its write.
    const renewing = await run('lib-redis-semaphore-redlock-mutex', { reach: 'split', leaseMs: 1500, pauseMs: 200, workMs: 1200 });
    expect(renewing.verdict).toBe('pass');
    const renewed = holdEnds(renewing.events, 'worker-1');
    expect(renewed.length).toBeGreaterThanOrEqual(2);
    expect(renewed.at(-1)! - renewed[0]!).toBeGreaterThan(1000);
    const write = eventsOf(renewing.events, 'write-accepted', 'worker-1')[0]!;
    expect(renewed[0]!).toBeLessThan(write.atMs);
    expect(renewed.at(-1)!).toBeGreaterThan(write.atMs);
    // The hand-written Redlock never renews: its hold, over before worker-2's grant, grows only
    // as later nodes of the majority take the SET (milliseconds apart, more on a loaded
    // machine), never by anything like a lease.
    const plain = await run('redlock');
    const once = holdEnds(plain.events, 'worker-1');
    const ttlMs = eventsOf(plain.events, 'lease-acquired', 'worker-1')[0]!.ttlMs;
    expect(ttlMs).not.toBeNull();
    expect(once.length).toBeGreaterThanOrEqual(1);
    expect(once.at(-1)! - once[0]!).toBeLessThan(ttlMs! / 4);
    expect(once.at(-1)!).toBeLessThanOrEqual(eventsOf(plain.events, 'lease-acquired', 'worker-2')[0]!.atMs);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'redlock', variant: 'redlock', params: { leaseMs: 100 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'leaseMs' must be an integer from 500 to 10000, got 100" });
    const reach = tested.playground.prepare({ scenario: 'redlock', variant: 'redlock', params: { reach: 'half' } });
    expect(reach).toEqual({ ok: false, error: "parameter 'reach' must be one of all, split, got half" });
  });

  it('leaves no redis-server of its own running', async () => {
    const { events } = await run('redlock', { pauseMs: 0, workMs: 0 });
    expect(eventsOf(events, 'run-finished')).toHaveLength(1);
    const { execFileSync } = await import('node:child_process');
    const mine = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)]).toString();
    expect(mine).not.toMatch(/redis-server/);
  });
});
