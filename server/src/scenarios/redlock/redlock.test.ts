// Both redlock variants against five real redis-servers started for each run, the real
// main Redis and PostgreSQL, at their defaults and at other parameters. worker-1 is
// stopped for real (SIGSTOP/SIGCONT), node-3's clock jump moves its redis-server's own wall
// clock (the wall clock shim; without it, its key's expiry), and a node out of reach is a
// real silent socket; so each verdict is the same on every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsOf } from '@racelab/shared';
import { detectLabMechanisms, MECHANISM } from '../../labnet/mechanisms.js';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';
import { HAND_WRITTEN_ASKING, passesInsideLock } from './variants/redlock.js';
import { renewalAtTheEdge } from './lockLeft.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground();
});
afterAll(async () => {
  await playground.close();
});

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'redlock', variant, params);

const stale = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };
const fenced = { maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' };
const quiet = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-2' };
const notes = (events: Parameters<typeof eventsOf>[0], workerId: string) => eventsOf(events, 'note', workerId).map((e) => e.text);
/** Where a worker's first event of a type stands in the run's log. */
const seqOf = (events: Parameters<typeof eventsOf>[0], type: Parameters<typeof eventsOf>[1], workerId: string) =>
  eventsOf(events, type, workerId)[0]!.seq;

describe('redlock at its defaults', () => {
  it('redlock: both workers win a majority, and the stale write lands', async () => {
    const { metrics, verdict, events } = await run('redlock');
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
    // A majority of the five real nodes, each time: all five, as every node is reachable.
    expect(notes(events, 'worker-1')[0]).toMatch(/^5 of 5 nodes said yes/);
    expect(notes(events, 'worker-2')[0]).toMatch(/^5 of 5 nodes said yes/);
    const paused = eventsOf(events, 'process-paused', 'worker-1');
    expect(paused).toEqual([expect.objectContaining({ plannedMs: 2500 })]);
    // worker-2 got its majority while worker-1 was stopped: it asks only after worker-1's
    // grant, which worker-1 signals just before the stop, and only once the lock has left node-5.
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(paused[0]!.atMs);
    // worker-1's stale write came after worker-2's work and write: the choreography holds it
    // back until worker-2 has written (the log's order is causal here; which write stayed is
    // the row's to say: finalWriter above).
    expect(seqOf(events, 'work-finished', 'worker-2')).toBeLessThan(seqOf(events, 'write-accepted', 'worker-1'));
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
    // The server saw every node hand the lock from worker-1 to worker-2.
    const node5 = eventsOf(events, 'row-observed')
      .filter((e) => e.target === 'node-5 lock')
      .map((e) => e.value);
    expect(node5).toEqual(expect.arrayContaining(['worker-1', 'worker-2']));
    expect(node5.indexOf('worker-1')).toBeLessThan(node5.indexOf('worker-2'));
  });

  it('redlock-fenced: the same two holders, but PostgreSQL refuses the stale write', async () => {
    const { metrics, verdict, events } = await run('redlock-fenced');
    expect(metrics).toEqual(fenced);
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(
      eventsOf(events, 'row-observed')
        .filter((e) => e.target === 'document')
        .at(-1)?.value,
    ).toBe('worker-2 · fence 2');
  });
});

describe('redlock: a clock jump on one node', () => {
  const jump = { clockJumpMs: 1000, pauseMs: 0, reach: 'split' };

  it('in a split, the jump alone gives a second majority, with no pause at all', async () => {
    const { metrics, events } = await run('redlock', jump);
    expect(metrics).toEqual(stale);
    expect(eventsOf(events, 'process-paused')).toEqual([]);
    expect(notes(events, 'worker-1')[0]).toMatch(/^3 of 5 nodes said yes \(node-1, node-2, node-3\)/);
    expect(notes(events, 'worker-2')[0]).toMatch(/^3 of 5 nodes said yes \(node-3, node-4, node-5\)/);
    // Played by worker-1's process, on node-3's own clock where the shim builds here; the row reads the clock off the node.
    const jumped = detectLabMechanisms().wallClockShim ? MECHANISM.wallClockShim : MECHANISM.simulatedExpiry;
    expect(faultsOf(events).filter((f) => f.fault === 'clock-jump')).toEqual([
      expect.objectContaining({ workerId: 'worker-1', target: 'node-3 +1000 ms', mechanism: jumped }),
    ]);
    const clockRow = eventsOf(events, 'row-observed').filter((e) => e.target === 'node-3 clock');
    expect(clockRow.at(-1)?.value).toBe('+1000 ms');
    // worker-2 got its majority while worker-1, never paused, still held its first one: the
    // two held a grant together at worker-1's write (maxConcurrentHolders above), and worker-2's grant
    // is in the log before worker-1's write, which the choreography holds back until
    // worker-2 has written (causal order, not two processes' clocks).
    expect(seqOf(events, 'lease-acquired', 'worker-2')).toBeLessThan(seqOf(events, 'write-accepted', 'worker-1'));
    const fencedRun = await run('redlock-fenced', jump);
    expect(fencedRun.metrics).toEqual(fenced);
    expect(fencedRun.verdict).toBe('pass');
  });

  it('with every node reachable, the same jump leaves worker-1 four nodes and worker-2 waits', async () => {
    // The jump as long as the lease again, which empties node-3; a long lease, so worker-1's
    // four keys outlive its work and write by seconds however busy the machine.
    const { metrics, verdict, events } = await run('redlock', { leaseMs: 5000, clockJumpMs: 5000, pauseMs: 0 });
    expect(metrics).toEqual(quiet);
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(4);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(
      eventsOf(events, 'lease-released', 'worker-1')[0]!.atMs,
    );
  });

  it('a jump smaller than the time left after the work changes nothing, even in a split', async () => {
    // node-3's key keeps seconds more than the work and the write need, however busy the machine.
    const { metrics } = await run('redlock', { leaseMs: 5000, clockJumpMs: 300, pauseMs: 0, reach: 'split', workMs: 100 });
    expect(metrics).toEqual(quiet);
  });
});

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
    expect(playground.prepare({ scenario: 'redlock', variant: 'lib-redis-semaphore-redlock-mutex', params: edge })).toEqual({
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
    const bad = playground.prepare({ scenario: 'redlock', variant: 'redlock', params: { leaseMs: 100 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'leaseMs' must be an integer from 500 to 10000, got 100" });
    const reach = playground.prepare({ scenario: 'redlock', variant: 'redlock', params: { reach: 'half' } });
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

describe('redlock judges writes by what reached the row, whatever the worker says', () => {
  it('redlock: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const kill = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(playground, 'redlock', 'redlock', {}, kill);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
  });
});

describe('redlock counts every grant from what the nodes held, whatever the worker records', () => {
  it('redlock: worker-2 killed right after it won its majority: worker-1 still writes as one of two holders', async () => {
    // worker-2 dies before any other line of its job: only the server, watching the five nodes, knows it was granted.
    const killAfterGrant = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(playground, 'redlock', 'redlock', {}, killAfterGrant);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
  });
});
