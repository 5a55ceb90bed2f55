// Faults in the middle of a run, for real: Redis restarted, a PostgreSQL backend
// terminated, a worker SIGKILLed or stuck. Each ends the affected run with a clear
// run-failed within 2 s of the fault (measured from the fault to the event), leaves no
// worker process, no key and no schema behind, and the next run succeeds.
//
// The 2 s bound is the issue's. What it measures here: the time from the fault to the
// moment the run-failed event is appended. The server learns of each fault from the
// kernel at once (a closed socket, a process exit), so the figure is a few ms to a few
// tens of ms; 2 s leaves ample room for a loaded CI machine, while a design that only
// noticed at the next query or at the deadline (seconds later) fails it.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { DEFAULT_DATABASE_URL } from '../services/index.js';
import { startPrivateRedis, type PrivateRedis } from '../testing/privateRedis.js';
import { openTestPlayground, play } from '../testing/testPlayground.js';
import { alive, exitedWorkerPids, leftovers, until, workerPids } from '../testing/wsClient.js';
import { Playground } from './playground.js';
import type { Run } from './run.js';

/** The 2 s of the issue: from a fault to the run-failed on the timeline. */
const WITHIN_MS = 2000;

/** Starts a long run and resolves once `event` has happened (the run is mid-work). */
async function startLong(
  playground: Playground,
  until_: RunEvent['type'] = 'work-started',
  extra: { deadlineMs?: number; workers?: number; workMs?: number } = {},
) {
  const prepared = playground.prepare({
    scenario: 'duplicate-job',
    variant: 'token-lua',
    params: { workers: extra.workers ?? 3, workMs: extra.workMs ?? 8000 },
    deadlineMs: extra.deadlineMs,
  });
  if (!prepared.ok) throw new Error(prepared.error);
  const run = prepared.run;
  let failedAt = 0;
  run.onEvent((e) => {
    if (e.type === 'run-failed') failedAt = performance.now();
  });
  const outcome = run.start();
  await until(() => run.events.some((e) => e.type === until_) || run.done, `${until_} in the run`, 20_000);
  expect(run.done).toBe(false);
  return { run, outcome, failedAt: () => failedAt };
}

/** The run failed with `message`, within WITHIN_MS of `faultAt`, and left nothing behind. */
async function expectCleanFailure(
  playground: Playground,
  started: { run: Run; failedAt: () => number },
  faultAt: number,
  message: RegExp,
): Promise<number> {
  const { run } = started;
  await run.settled;
  const last = run.events.at(-1)!;
  expect(last.type).toBe('run-failed');
  expect(last.type === 'run-failed' && last.message).toMatch(message);
  const took = started.failedAt() - faultAt;
  expect(took).toBeGreaterThanOrEqual(0);
  expect(took).toBeLessThan(WITHIN_MS);
  // No orphan worker: every process of the run that did not go back to the pool is gone (reaped, not even a zombie).
  for (const pid of exitedWorkerPids(run.events)) expect(alive(pid)).toBe(false);
  expect(await leftovers(playground.redis, playground.pg, run.id)).toEqual({ keys: [], schema: false });
  return took;
}

async function expectNextRunPasses(playground: Playground): Promise<void> {
  const next = await play(playground, 'duplicate-job', 'token-lua');
  expect(next.verdict).toBe('pass');
  expect(next.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
  expect(await leftovers(playground.redis, playground.pg, next.run.id)).toEqual({ keys: [], schema: false });
}

describe('Redis restarted mid-run', () => {
  let redis: PrivateRedis;
  let playground: Playground;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    playground = await Playground.open({ redisUrl: redis.url, databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, poolSize: 2 });
  });
  afterAll(async () => {
    await playground?.close();
    await redis?.stop();
  });

  it('fails the run within 2 s, leaves nothing behind, and the next run (warm workers, notifications and all) succeeds', async () => {
    const started = await startLong(playground);
    const faultAt = performance.now();
    redis.kill();
    await redis.start();
    const took = await expectCleanFailure(
      playground,
      started,
      faultAt,
      /Redis closed the connection during the run|its Redis connection was lost/,
    );
    console.log(`redis restart: run-failed ${Math.round(took)} ms after the kill`);
    // The restarted Redis forgot the CONFIG SET: the server sets it again.
    await until(async () => {
      const [, flags = ''] = (await playground.redis.config('GET', 'notify-keyspace-events')) as string[];
      return ['K', 'g', '$', 'x'].every((f) => flags.includes(f));
    }, 'keyspace notifications back on');
    // And the subscriber is subscribed again: a change reaches the listeners.
    const heard: string[] = [];
    const unlisten = playground.keyspace!.listen('racelab:probe:', (key, event) => heard.push(`${key} ${event}`));
    await until(
      async () => {
        await playground.redis.set('racelab:probe:k', '1', 'PX', 1000);
        return heard.length > 0;
      },
      'a keyspace notification after the restart',
      5000,
      100,
    );
    unlisten();
    await playground.redis.del('racelab:probe:k');
    // Every warm worker is one that connected to the new Redis.
    await expectNextRunPasses(playground);
    await expectNextRunPasses(playground);
  });
});

describe('faults on the real stores', () => {
  let playground: Playground;
  beforeAll(async () => {
    playground = await openTestPlayground();
  });
  afterAll(async () => {
    await playground.close();
  });

  // (Never the connection that asks: it is one of the server's own.)
  const terminate = (applicationName: string) =>
    playground.pg.query<{ ok: boolean }>(
      'select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
      [applicationName],
    );
  /** The worker inside the job (holding the lock) right now. */
  const holder = (run: Run) => run.events.find((e) => e.type === 'work-started')!.workerId!;

  it("a worker's PostgreSQL backend terminated: the run fails within 2 s", async () => {
    const started = await startLong(playground);
    const workerId = holder(started.run);
    const faultAt = performance.now();
    const { rows } = await terminate(`racelab-worker run_${started.run.id} ${workerId}`);
    expect(rows).toEqual([{ ok: true }]);
    const took = await expectCleanFailure(
      playground,
      started,
      faultAt,
      new RegExp(`^${workerId} failed: its PostgreSQL connection was lost: terminating connection due to administrator command$`),
    );
    console.log(`worker backend terminated: run-failed ${Math.round(took)} ms after`);
    await expectNextRunPasses(playground);
  });

  it("the run's own server-side PostgreSQL backend terminated: the run fails within 2 s", async () => {
    const started = await startLong(playground);
    const faultAt = performance.now();
    const { rows } = await terminate(`racelab-server run_${started.run.id}`);
    expect(rows).toEqual([{ ok: true }]);
    const took = await expectCleanFailure(playground, started, faultAt, /PostgreSQL .*terminating connection due to administrator command/);
    console.log(`server backend of the run terminated: run-failed ${Math.round(took)} ms after`);
    await expectNextRunPasses(playground);
  });

  it("the server's shared connections terminated: runs are not affected and the pool replaces them", async () => {
    const started = await startLong(playground, 'work-started', { workMs: 1500 });
    // Two shared connections at least, right now (the pool closes idle ones after 10 s): one to terminate, one to ask.
    await Promise.all([playground.pg.query('select pg_sleep(0.05)'), playground.pg.query('select pg_sleep(0.05)')]);
    // This test's own server connections, no one else's.
    const { rows } = await terminate(`racelab-server pid ${process.pid}`);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const outcome = await started.outcome;
    expect(outcome).toMatchObject({ status: 'finished', verdict: 'pass' });
    await expectNextRunPasses(playground);
  });

  it('a worker SIGKILLed from outside: the run fails within 2 s', async () => {
    const started = await startLong(playground);
    const workerId = holder(started.run);
    const pid = started.run.events.find((e) => e.type === 'worker-started' && e.workerId === workerId)!;
    const faultAt = performance.now();
    process.kill((pid as { pid: number }).pid, 'SIGKILL');
    const took = await expectCleanFailure(
      playground,
      started,
      faultAt,
      new RegExp(`^${workerId} \\(pid ${(pid as { pid: number }).pid}\\) was killed from outside the run \\(SIGKILL\\)$`),
    );
    console.log(`worker SIGKILLed: run-failed ${Math.round(took)} ms after`);
    await expectNextRunPasses(playground);
  });

  it('a stuck worker: the deadline kills it and fails the run', async () => {
    // One warm worker, so the run is at work well within its (short) deadline.
    const started = await startLong(playground, 'work-started', { deadlineMs: 3000, workers: 1 });
    const pid = workerPids(started.run.events)[0]!;
    process.kill(pid, 'SIGSTOP'); // stuck for good: it will never answer again
    const outcome = await started.outcome;
    expect(outcome).toEqual({ status: 'failed', message: 'the run passed its deadline of 3000 ms; its workers were killed' });
    await started.run.settled;
    expect(alive(pid)).toBe(false);
    expect(await leftovers(playground.redis, playground.pg, started.run.id)).toEqual({ keys: [], schema: false });
    await expectNextRunPasses(playground);
  });

  it('a run always ends, even one cancelled before its stores exist', async () => {
    // Cancelled before its stores even exist: it still ends, and cleans up what setup made.
    const prepared = playground.prepare({ scenario: 'duplicate-job', variant: 'no-lock', params: {} });
    if (!prepared.ok) throw new Error(prepared.error);
    const outcome = prepared.run.start();
    prepared.run.cancel('cancelled at once');
    expect(await outcome).toEqual({ status: 'failed', message: 'cancelled at once' });
    await prepared.run.settled;
    expect(await leftovers(playground.redis, playground.pg, prepared.run.id)).toEqual({ keys: [], schema: false });
    expect(prepared.run.events.map((e) => e.type)).toEqual(['run-failed']);
  });
});
