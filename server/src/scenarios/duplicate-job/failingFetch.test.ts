// The failure parameter against the real Redis and PostgreSQL: the first container's data
// fetch fails inside its critical section, and what the variant's release does then
// decides who else runs the job. The near-misses of the release fail for the reason they
// name, not by luck: each order below is set by latches and real stalls, not by timing.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { FAIL_INSIDE_THE_LEASE, OVERRUN_THEN_FAIL } from './declaredSets.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('duplicate-job');
const { run, mutant } = tested;
const expectedOf = (played: Awaited<ReturnType<typeof run>>) =>
  played.outcome.status === 'finished' ? played.outcome.expected : undefined;

describe.concurrent('failure first-fails', () => {
  it("token-lua: worker-1's fetch fails, its release in finally frees the lock, worker-2 sends the one report", async () => {
    const played = await run('token-lua', { workers: 2, arrival: 'late', failure: 'first-fails' });
    expect(played.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(played.verdict).toBe('pass');
    const { events } = played;
    expect(eventsOf(events, 'call-finished', 'worker-1')).toEqual([expect.objectContaining({ target: 'data source', status: 503 })]);
    expect(eventsOf(events, 'note', 'worker-1').map((e) => e.text)).toContain(
      'the job failed: the data source answered 503; no report is built',
    );
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(1);
    expect(eventsOf(events, 'write-accepted').map((e) => e.workerId)).toEqual(['worker-2']);
    // A failed job is not a failed worker: every process ended on its own.
    expect(eventsOf(events, 'worker-exited').map((e) => e.code)).toEqual([0, 0]);
  });

  it("token-lua, worker-1's fetch outlasting its lease: its release deletes nothing and worker-3 skips", async () => {
    const { metrics, verdict, events } = await run('token-lua', OVERRUN_THEN_FAIL);
    expect(metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(verdict).toBe('pass');
    const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
    expect(w1Release.deleted).toBe(0);
    expect(w1Release.atMs).toBeGreaterThan(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs);
    expect(eventsOf(events, 'job-skipped').map((e) => e.workerId)).toEqual(['worker-3']);
  }, 60_000);

  it("a lock library that does not renew, worker-1's fetch outlasting its lease: the one report is worker-2's, as the run expects", async () => {
    const played = await run('lib-redlock', OVERRUN_THEN_FAIL);
    expect(played.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(played.verdict).toBe('pass');
    expect(expectedOf(played)).toEqual({ verdict: 'pass' });
    expect(eventsOf(played.events, 'write-accepted').map((e) => e.workerId)).toEqual(['worker-2']);
  }, 60_000);

  it('pg-advisory behaves like token-lua at both sets', async () => {
    for (const set of [OVERRUN_THEN_FAIL, FAIL_INSIDE_THE_LEASE]) {
      const { metrics, verdict, events } = await run('pg-advisory', set);
      expect(metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
      expect(verdict).toBe('pass');
      expect(eventsOf(events, 'job-skipped').map((e) => e.workerId)).toEqual(['worker-3']);
    }
  }, 60_000);

  it("arriving together, the holder's fetch fails and nobody sends: a correct lock is expected to fail here", async () => {
    const played = await run('token-lua', { failure: 'first-fails' });
    expect(played.metrics).toEqual({ emailsSent: 0, maxConcurrentHolders: 0, lockTtlAfterRunMs: -2 });
    expect(expectedOf(played)).toEqual({ verdict: 'fail', reason: expect.stringContaining('none comes later') });
    expect(eventsOf(played.events, 'job-skipped')).toHaveLength(2);
  });

  it("no-lock: exactly one container's fetch fails, whoever starts first", async () => {
    const { metrics, events } = await run('no-lock', { workers: 4, failure: 'first-fails' });
    expect(metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 3, lockTtlAfterRunMs: -2 });
    expect(eventsOf(events, 'call-finished')).toHaveLength(1);
  });

  it('leaves every default as it was: no fetch fails unless asked', async () => {
    const { events } = await run('token-lua');
    expect(eventsOf(events, 'call-finished')).toHaveLength(0);
    expect(tested.playground.prepare({ scenario: 'duplicate-job', variant: 'token-lua', params: { failure: 'sometimes' } })).toEqual({
      ok: false,
      error: "parameter 'failure' must be one of none, first-fails, got sometimes",
    });
  });
});

describe.concurrent('arriving late, a lock that cannot lapse', () => {
  // worker-1 waits for worker-2 only when its lease can pass on: with no lease, worker-2
  // fires when worker-1 is done, and the run used to wait for it until its deadline.
  it('no-lock and pg-advisory finish though the work outlasts the lease parameter', async () => {
    for (const variant of ['no-lock', 'pg-advisory']) {
      const { outcome, metrics } = await run(variant, { workers: 2, arrival: 'late', leaseMs: 100, workMs: 300 });
      expect(outcome.status).toBe('finished');
      expect(metrics.emailsSent).toBe(2);
    }
  });

  it("a lock library that renews itself, worker-1's fetch outlasting the lease parameter: finishes, the one report worker-2's", async () => {
    // Its key has a TTL, but the library keeps pushing it on: worker-2 fires when
    // worker-1 lets go, and the run used to wait for a lapse until its deadline.
    const played = await run('lib-redis-semaphore-mutex', OVERRUN_THEN_FAIL);
    expect(played.outcome.status).toBe('finished');
    expect(played.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(expectedOf(played)).toEqual({ verdict: 'pass' });
    const w1Release = eventsOf(played.events, 'lease-released', 'worker-1')[0]!;
    expect(eventsOf(played.events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(w1Release.atMs);
    expect(eventsOf(played.events, 'write-accepted').map((e) => e.workerId)).toEqual(['worker-2']);
  }, 60_000);
});

describe.concurrent("the release's near-misses fail for the reason they name", () => {
  it("plain DEL: worker-1's late release deletes worker-2's lock and worker-3 gets in", async () => {
    const { metrics, events } = await mutant('token-lua-plain-del', OVERRUN_THEN_FAIL);
    expect(metrics).toEqual({ emailsSent: 2, maxConcurrentHolders: 2, lockTtlAfterRunMs: -2 });
    const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
    expect(w1Release.deleted).toBe(1);
    expect(w1Release.atMs).toBeGreaterThan(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs);
    expect(eventsOf(events, 'lease-acquired', 'worker-3')[0]!.atMs).toBeGreaterThan(w1Release.atMs);
  }, 60_000);

  it("GET then DEL: the GET finds worker-1's own token, a real stall lets the lease pass, the DEL hits worker-2's lock", async () => {
    const { metrics, events } = await mutant('token-lua-get-then-del', FAIL_INSIDE_THE_LEASE);
    expect(metrics).toEqual({ emailsSent: 2, maxConcurrentHolders: 2, lockTtlAfterRunMs: -2 });
    const paused = eventsOf(events, 'process-paused', 'worker-1');
    expect(paused).toEqual([expect.objectContaining({ plannedMs: 4400 })]);
    const granted = eventsOf(events, 'lease-acquired', 'worker-2')[0]!;
    expect(granted.atMs).toBeGreaterThan(paused[0]!.atMs);
    const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
    expect(w1Release).toMatchObject({ deleted: 1 });
    expect(w1Release.atMs).toBeGreaterThan(eventsOf(events, 'process-resumed', 'worker-1')[0]!.atMs);
  }, 60_000);

  it('release only on success: the failed job keeps its lock and the others skip', async () => {
    const { metrics, events } = await mutant('token-lua-release-only-on-success', FAIL_INSIDE_THE_LEASE);
    expect(metrics).toEqual({ emailsSent: 0, maxConcurrentHolders: 0, lockTtlAfterRunMs: 3000 });
    expect(eventsOf(events, 'lease-released')).toHaveLength(0);
    expect(
      eventsOf(events, 'job-skipped')
        .map((e) => e.workerId)
        .sort(),
    ).toEqual(['worker-2', 'worker-3']);
  });
});
