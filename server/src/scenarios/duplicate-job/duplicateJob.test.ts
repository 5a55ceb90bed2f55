// Every duplicate-job variant against the real Redis and PostgreSQL, at its defaults and
// at other parameters. Races are choreographed by the scenario (barriers, latches set
// by what Redis holds, real SIGKILL), so each verdict is the same on every run.
// The other parameters are in duplicateJob.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('duplicate-job');
const { run } = tested;

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

describe('runs are isolated and clean up after themselves', () => {
  it('leaves no keys and no schema behind', async () => {
    const { run: finished } = await run('setnx-no-expiry');
    const keys = await tested.playground.redis.keys(`racelab:${finished.id}:*`);
    expect(keys).toEqual([]);
    const schemas = await tested.playground.pg.query('select 1 from pg_namespace where nspname = $1', [`run_${finished.id}`]);
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
    const { metrics, verdict, events } = await play(tested.playground, 'duplicate-job', 'token-lua', {}, killedAfterEmail);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(eventsOf(events, 'write-accepted')).toHaveLength(0);
    expect(eventsOf(events, 'lease-released')).toHaveLength(0);
    expect(metrics).toMatchObject({ emailsSent: 1, maxConcurrentHolders: 1 });
    expect(metrics.lockTtlAfterRunMs).toBeGreaterThan(0); // the lease left behind, still counting down
    expect(verdict).toBe('pass');
  });

  it('no-lock: a sender killed the same way is still one of three e-mails, three at once', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'duplicate-job', 'no-lock', {}, killedAfterEmail);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(eventsOf(events, 'write-accepted')).toHaveLength(2);
    expect(metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 3, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('fail');
  });
});
