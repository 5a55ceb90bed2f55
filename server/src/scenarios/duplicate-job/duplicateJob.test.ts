// Every duplicate-job variant against the real Redis and PostgreSQL, at its defaults and
// at other parameters. Races are choreographed by the scenario (barriers, latches set
// by what Redis holds, real SIGKILL), so each verdict is the same on every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground();
});
afterAll(async () => {
  await playground.close();
});

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'duplicate-job', variant, params);

describe('duplicate-job at its defaults', () => {
  it('no-lock: every worker sends the report', async () => {
    const { metrics, verdict } = await run('no-lock');
    expect(metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 3, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('fail');
  });

  it('setnx-no-expiry: the holder is killed for real and its key never expires', async () => {
    const { metrics, verdict, events } = await run('setnx-no-expiry');
    expect(metrics).toMatchObject({ emailsSent: 0, lockTtlAfterRunMs: -1 });
    expect(verdict).toBe('fail');
    const killed = eventsOf(events, 'process-killed');
    expect(killed).toHaveLength(1);
    const exit = eventsOf(events, 'worker-exited', killed[0]!.workerId!);
    expect(exit[0]?.signal).toBe('SIGKILL');
    expect(eventsOf(events, 'job-skipped')).toHaveLength(2);
    // What Redis held at the end: the dead holder's key, with no expiry.
    const last = eventsOf(events, 'key-observed').at(-1);
    expect(last).toMatchObject({ value: killed[0]!.workerId, pttlMs: -1 });
  });

  it('setnx-then-expire: a death between the two commands leaves the same stuck key', async () => {
    const { metrics, events } = await run('setnx-then-expire');
    expect(metrics).toMatchObject({ emailsSent: 0, lockTtlAfterRunMs: -1 });
    const holder = eventsOf(events, 'lease-acquired')[0]!.workerId!;
    expect(eventsOf(events, 'checkpoint-reached', holder).map((e) => e.checkpoint)).toEqual(['between-setnx-and-expire']);
    expect(eventsOf(events, 'lease-expiry-set')).toHaveLength(0);
  });

  it("blind-del: the first holder deletes the second one's lock and a third gets in", async () => {
    const { metrics, verdict, events } = await run('blind-del');
    expect(metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 2, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('fail');
    const acquired = eventsOf(events, 'lease-acquired');
    expect(acquired.map((e) => e.workerId)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
    // worker-1 released after worker-2 acquired, and Redis says it deleted a key: worker-2's.
    expect(w1Release.atMs).toBeGreaterThan(acquired[1]!.atMs);
    expect(w1Release.deleted).toBe(1);
    expect(acquired[2]!.atMs).toBeGreaterThan(w1Release.atMs);
  });

  it('token-lua: one e-mail, one holder, and no key left behind', async () => {
    const { metrics, verdict, events } = await run('token-lua');
    expect(metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'job-skipped')).toHaveLength(2);
    const key = eventsOf(events, 'lease-acquired')[0]!.key;
    expect(key).toMatch(/^lock:nightly-report:acme:\d{4}-\d{2}-\d{2}$/);
  });
});

describe('duplicate-job: waiting and advisory locks', () => {
  it('wait-for-lock: every worker still sends the report, one after another', async () => {
    const { metrics, events } = await run('wait-for-lock');
    expect(metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(eventsOf(events, 'lease-wait-started')).toHaveLength(2);
    // Each e-mail comes after the previous holder's release: serialised, late.
    const sent = eventsOf(events, 'write-accepted').map((e) => e.atMs);
    const released = eventsOf(events, 'lease-released').map((e) => e.atMs);
    expect(sent[1]).toBeGreaterThan(released[0]!);
    expect(sent[2]).toBeGreaterThan(released[1]!);
  });

  it('wait-for-lock with 6 workers sends 6 e-mails', async () => {
    expect((await run('wait-for-lock', { workers: 6, workMs: 20 })).metrics.emailsSent).toBe(6);
  });

  it('pg-advisory: one e-mail, the others skip, nothing left in Redis', async () => {
    const { metrics, verdict, events } = await run('pg-advisory');
    expect(metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'job-skipped')).toHaveLength(2);
    expect(eventsOf(events, 'lease-released')[0]?.deleted).toBe(1);
  });

  it('correct variants hold with no work at all and 20 workers: every container tried while the lock was held', async () => {
    for (const variant of ['token-lua', 'pg-advisory']) {
      const { metrics } = await run(variant, { workers: 20, workMs: 0 });
      expect(metrics.emailsSent).toBe(1);
    }
  }, 180_000); // forty forks on a busy machine

  it('pg-advisory with 9 workers still sends one e-mail', async () => {
    expect((await run('pg-advisory', { workers: 9 })).metrics.emailsSent).toBe(1);
  });
});

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
    const bad = playground.prepare({ scenario: 'duplicate-job', variant: 'no-lock', params: { workers: 21 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'workers' must be an integer from 1 to 20, got 21" });
  });
});

describe('runs are isolated and clean up after themselves', () => {
  it('leaves no keys and no schema behind', async () => {
    const { run: finished } = await run('setnx-no-expiry');
    const keys = await playground.redis.keys(`racelab:${finished.id}:*`);
    expect(keys).toEqual([]);
    const schemas = await playground.pg.query('select 1 from pg_namespace where nspname = $1', [`run_${finished.id}`]);
    expect(schemas.rowCount).toBe(0);
  });

  it('runs side by side without seeing each other', async () => {
    const [a, b] = await Promise.all([run('no-lock', { workers: 4 }), run('token-lua', { workers: 4 })]);
    expect(a.metrics.emailsSent).toBe(4);
    expect(b.metrics.emailsSent).toBe(1);
  });
});

describe('the verdict needs no word from a worker', () => {
  // The first container to have sent its e-mail is killed at once: it neither says it sent
  // nor releases its lock. The figures come from the rows and Redis, so nothing is missing.
  const killedAfterEmail = [{ checkpoint: 'report-sent', target: 'first', action: 'kill' as const }];

  it('token-lua: the holder killed right after its e-mail still counts once, and its lock still expires', async () => {
    const { metrics, verdict, events } = await play(playground, 'duplicate-job', 'token-lua', {}, killedAfterEmail);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(eventsOf(events, 'write-accepted')).toHaveLength(0);
    expect(eventsOf(events, 'lease-released')).toHaveLength(0);
    expect(metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
    expect(metrics.lockTtlAfterRunMs).toBeGreaterThan(0); // the lease left behind, still counting down
    expect(verdict).toBe('pass');
  });

  it('no-lock: a sender killed the same way is still one of three e-mails, three at once', async () => {
    const { metrics, verdict, events } = await play(playground, 'duplicate-job', 'no-lock', {}, killedAfterEmail);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(eventsOf(events, 'write-accepted')).toHaveLength(2);
    expect(metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 3, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('fail');
  });
});
