// A run's sleeps end with the run: a sleep its code left pending (the loser of a
// Promise.race, as pooled-advisory-lock's worker-1 races the other worker's hold against its
// work) keeps no timer alive after it, so the worker may serve the next run.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { expect, it } from 'vitest';
import type { WorkerPlan } from './ipc.js';
import { createWorkerContext } from './workerContext.js';

const plan = {
  runId: 'run-1',
  workerId: 'worker-1',
  workerIds: ['worker-1'],
  params: {},
  keyPrefix: 'racelab:test:',
  runStartNs: process.hrtime.bigint().toString(),
  shared: {},
} as unknown as WorkerPlan;

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

it('cancels the sleeps still pending when the run ends, and only those', async () => {
  const { ctx, endSleeps } = createWorkerContext(plan, {} as Redis, {} as pg.Client, () => undefined);
  const before = timers();
  await ctx.sleep(5); // one that ended is gone already
  void ctx.sleep(60_000);
  void ctx.sleep(120_000);
  expect(timers()).toBe(before + 2);
  endSleeps();
  expect(timers()).toBe(before);
});
