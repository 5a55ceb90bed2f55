// The run's life cycle on the real stores and worker processes: the path of a run that
// finishes, and a cancel or a crash in each status. Each setup step is held at a gate
// while the run is cancelled, so the cancel lands in that step, not near it; the run
// must fail at once with the cancel's reason (the step still held), then clean up what
// the step delivers once it is let through: no worker process, key or schema is left.
import type { WorkerProcess } from '../worker/ipc.js';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { CORE_STORES, type RunEvent } from '@racelab/shared';
import { gate, type Gate } from '../testing/gate.js';
import { processState } from '../testing/processTable.js';
import { runOf } from '../testing/runOf.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { alive, exitedWorkerPids, leftovers, until, workerPids } from '../testing/wsClient.js';
import type { Playground } from './playground.js';
import type { Run } from './run.js';
import type { StoreSilence } from './storeWatch.js';
import type { WorkerPool } from './workerPool.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground();
});
afterAll(async () => {
  await playground.close();
});

const types = (run: Run): RunEvent['type'][] => run.events.map((e) => e.type);
/** Waits for an event of this type in the run's log. */
const eventOf = async (run: Run, type: RunEvent['type']): Promise<RunEvent> => {
  await until(() => run.events.some((e) => e.type === type) || run.done, `${type} in run ${run.id}`, 30_000);
  const found = run.events.find((e) => e.type === type);
  if (!found) throw new Error(`run ${run.id} ended without ${type}: ${types(run).join(', ')}`);
  return found;
};

/** The server's real pool, with its statements held until the gate opens. */
const poolHeldBy = (held: Gate): pg.Pool =>
  Object.assign(Object.create(playground.pg) as pg.Pool, {
    query: async (...args: Parameters<pg.Pool['query']>) => {
      await held.pass();
      return (playground.pg.query as (...a: unknown[]) => unknown)(...args);
    },
  });

/** The run settled and left no key, no schema and no live worker process but those back in the pool. */
async function expectNothingLeft(run: Run, pids: number[] = exitedWorkerPids(run.events)): Promise<void> {
  await run.settled;
  expect(run.status).toBe('settled');
  expect(await leftovers(playground.redis, playground.pg, run.id)).toEqual({ keys: [], schema: false });
  for (const pid of pids) expect(alive(pid)).toBe(false);
}

/** The run has ended with this reason, as the cancel returned: its clean-up may still be held. */
function expectFailedAtOnce(run: Run, message: string): void {
  expect(run.status).toBe('ended');
  expect(run.done).toBe(true);
  expect(run.isSettled).toBe(false);
  expect(run.events.at(-1)).toMatchObject({ type: 'run-failed', message });
}

/** A cancel after the end changes nothing: no event, the same status and outcome. */
function expectSecondCancelIgnored(run: Run): void {
  const before = [...run.events];
  const status = run.status;
  run.cancel('cancelled again');
  expect(run.events).toEqual(before);
  expect(run.status).toBe(status);
}

describe('run life cycle', () => {
  it('a run that finishes goes prepared → starting → running → ending → ended → settled', async () => {
    const run = runOf(playground, 'duplicate-job', 'token-lua');
    expect(run.status).toBe('prepared');
    const outcome = await run.start();
    expect(outcome).toMatchObject({ status: 'finished', verdict: 'pass' });
    await expectNothingLeft(run);
    expect(run.statuses).toEqual(['prepared', 'starting', 'running', 'ending', 'ended', 'settled']);
    expect(run.events.at(-1)!.type).toBe('run-finished');
    expectSecondCancelIgnored(run);
    await expect(run.start()).rejects.toThrow(`run ${run.id} was already started`);
  });

  it("a run that has settled leaves no listener on the stores' silence, which outlives every run", async () => {
    const watch = (playground as unknown as { watch: StoreSilence }).watch;
    const listening = (): number[] => CORE_STORES.map((store) => getEventListeners(watch.signal(store), 'abort').length);
    const before = listening();
    for (let i = 0; i < 2; i++) {
      const prepared = playground.prepare({ scenario: 'duplicate-job', variant: 'token-lua', params: {} });
      if (!prepared.ok) throw new Error(prepared.error);
      expect(await prepared.run.start()).toMatchObject({ status: 'finished' });
    }
    expect(listening()).toEqual(before);
  });

  it('a fault before the workers run is refused in words, and the run goes on to its verdict', async () => {
    const held = gate();
    // Its statements held until the gate opens: the run stays starting.
    const run = runOf(playground, 'duplicate-job', 'token-lua', { services: { pg: poolHeldBy(held) } });
    const refusal = 'the run is starting: its workers take faults once it runs';
    expect(run.fault('worker-1', 'kill')).toBe(refusal);
    const outcome = run.start();
    await held.reached;
    expect(run.status).toBe('starting');
    expect(run.fault('worker-1', 'kill')).toBe(refusal);
    expect(run.fault('worker-2', 'pause')).toBe(refusal);
    held.open();
    expect(await outcome).toMatchObject({ status: 'finished', verdict: 'pass' });
    expect(types(run)).not.toContain('process-killed');
    expect(types(run)).not.toContain('process-paused');
    await expectNothingLeft(run);
  });

  it('cancelled while prepared: it fails as soon as it starts, and makes no stores', async () => {
    const run = runOf(playground, 'duplicate-job', 'no-lock');
    run.cancel('cancelled before the start');
    expect(run.status).toBe('prepared');
    expect(await run.start()).toEqual({ status: 'failed', message: 'cancelled before the start' });
    await expectNothingLeft(run);
    expect(run.statuses).toEqual(['prepared', 'starting', 'ended', 'settled']);
    expect(types(run)).toEqual(['run-failed']);
  });

  it('cancelled while starting, during its stores: fails at once, then drops the schema made after the cancel', async () => {
    const held = gate();
    const run = runOf(playground, 'duplicate-job', 'no-lock', { services: { pg: poolHeldBy(held) } });
    const outcome = run.start();
    await held.reached;
    expect(run.status).toBe('starting');
    run.cancel('cancelled during the stores');
    expectFailedAtOnce(run, 'cancelled during the stores');
    expectSecondCancelIgnored(run);
    expect(await leftovers(playground.redis, playground.pg, run.id)).toEqual({ keys: [], schema: false });
    held.open(); // the schema is made now, after the run has ended
    expect(await outcome).toEqual({ status: 'failed', message: 'cancelled during the stores' });
    await expectNothingLeft(run);
    expect(run.statuses).toEqual(['prepared', 'starting', 'ended', 'settled']);
    expect(types(run)).toEqual(['run-failed']);
  });

  it('cancelled while starting, during setup: fails at once, then closes the fixture setup delivers', async () => {
    const held = gate();
    let closed = 0;
    const run = runOf(playground, 'duplicate-job', 'no-lock', {
      scenario: (s) => ({
        ...s,
        setup: async (stores, params, info) => {
          const fixture = await s.setup(stores, params, info);
          await held.pass();
          return { ...fixture, close: async () => void closed++ };
        },
      }),
    });
    const outcome = run.start();
    await held.reached;
    expect(run.status).toBe('starting');
    run.cancel('cancelled during setup');
    expectFailedAtOnce(run, 'cancelled during setup');
    expect(closed).toBe(0);
    held.open();
    expect(await outcome).toEqual({ status: 'failed', message: 'cancelled during setup' });
    await expectNothingLeft(run);
    expect(closed).toBe(1);
    expect(run.statuses).toEqual(['prepared', 'starting', 'ended', 'settled']);
    expect(types(run)).toEqual(['run-failed']);
  });

  it('cancelled while starting, during the hand-out of its workers: fails at once, then kills the processes handed out late', async () => {
    const held = gate();
    const handedOut: WorkerProcess[] = [];
    const heldWorkers: WorkerPool = Object.assign(Object.create(playground.pool) as WorkerPool, {
      take: async (count: number) => {
        const children = await playground.pool.take(count);
        handedOut.push(...children);
        await held.pass();
        return children;
      },
    });
    const run = runOf(playground, 'duplicate-job', 'no-lock', { services: { pool: heldWorkers } });
    const outcome = run.start();
    await held.reached;
    expect(run.status).toBe('starting');
    expect(handedOut.length).toBe(3);
    for (const child of handedOut) expect(alive(child.pid!)).toBe(true);
    run.cancel('cancelled during the hand-out');
    expectFailedAtOnce(run, 'cancelled during the hand-out');
    held.open();
    expect(await outcome).toEqual({ status: 'failed', message: 'cancelled during the hand-out' });
    await expectNothingLeft(
      run,
      handedOut.map((c) => c.pid!),
    );
    expect(run.statuses).toEqual(['prepared', 'starting', 'ended', 'settled']);
    expect(types(run)).toEqual(['run-failed']);
  });

  it('cancelled while running, mid-stall: the stopped worker is continued and killed, its stall timer cleared', async () => {
    const run = runOf(playground, 'fencing', 'lease-only', { params: { pauseMs: 15_000 } });
    const outcome = run.start();
    const paused = await eventOf(run, 'process-paused');
    const pid = workerPids(run.events.filter((e) => e.workerId === paused.workerId))[0]!;
    expect(run.status).toBe('running');
    await until(() => processState(pid) === 'T', `worker pid ${pid} stopped by SIGSTOP`); // the kernel stops it a moment after the signal
    expect(run.stallsPending).toBe(1);
    run.cancel('cancelled mid-stall');
    expectFailedAtOnce(run, 'cancelled mid-stall');
    expect(run.stallsPending).toBe(0);
    expect(await outcome).toEqual({ status: 'failed', message: 'cancelled mid-stall' });
    await expectNothingLeft(run);
    expect(alive(pid)).toBe(false);
    expect(run.statuses).toEqual(['prepared', 'starting', 'running', 'ended', 'settled']);
    expect(run.events.filter((e) => e.type === 'process-resumed')).toEqual([]);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-failed', message: 'cancelled mid-stall' });
    expectSecondCancelIgnored(run);
  });

  it('a worker killed from outside while running: the run fails with who and how', async () => {
    const run = runOf(playground, 'duplicate-job', 'token-lua', { params: { workMs: 8000 } });
    const outcome = run.start();
    const working = await eventOf(run, 'work-started');
    const started = run.events.find((e) => e.type === 'worker-started' && e.workerId === working.workerId)!;
    const pid = (started as Extract<RunEvent, { type: 'worker-started' }>).pid;
    expect(run.status).toBe('running');
    process.kill(pid, 'SIGKILL');
    expect(await outcome).toEqual({
      status: 'failed',
      message: `${working.workerId} (pid ${pid}) was killed from outside the run (SIGKILL)`,
    });
    await expectNothingLeft(run);
    expect(run.statuses).toEqual(['prepared', 'starting', 'running', 'ended', 'settled']);
    expectSecondCancelIgnored(run);
  });

  it('cancelled while ending, during measure: fails at once with no verdict, and cleans up without waiting for measure', async () => {
    const held = gate();
    let measured: Promise<unknown> | undefined;
    const run = runOf(playground, 'duplicate-job', 'token-lua', {
      scenario: (s) => ({
        ...s,
        measure: (...args: Parameters<typeof s.measure>) => {
          measured = held.pass().then(() => s.measure(...args));
          return measured as ReturnType<typeof s.measure>;
        },
      }),
    });
    const outcome = run.start();
    await held.reached;
    expect(run.status).toBe('ending');
    run.cancel('cancelled during measure');
    expectFailedAtOnce(run, 'cancelled during measure');
    // The run stops waiting for measure: it settles with measure still held.
    expect(await outcome).toEqual({ status: 'failed', message: 'cancelled during measure' });
    await expectNothingLeft(run);
    expect(run.statuses).toEqual(['prepared', 'starting', 'running', 'ending', 'ended', 'settled']);
    expect(types(run)).not.toContain('run-finished');
    expect(run.events.at(-1)).toMatchObject({ type: 'run-failed', message: 'cancelled during measure' });
    // Let through now, measure finds the run's connection closed: an error nobody waits for.
    held.open();
    await expect(measured).rejects.toThrow();
  });
});
