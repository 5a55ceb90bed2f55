// The scheduler alone, its run a stand-in: two workers, each running two tasks side by side,
// every task polling for a lease that only time would free. No store is involved: what is
// held here is the scheduler's own rule for when time passes (the real runs are in
// explorer.test.ts and the scenarios' explore tests).
import { describe, expect, it } from 'vitest';
import type { StepAt } from '@racelab/shared';
import { SPINNING_AFTER, StepScheduler, type ScheduledRun } from './stepScheduler.js';

/** A run whose only lease is 'lock', held by nobody who will ever release it. */
function standIn(): { run: ScheduledRun; held: () => boolean; notes: string[] } {
  let held = true;
  const notes: string[] = [];
  const run: ScheduledRun = {
    // Each read goes through the event loop, as a store's does: a test timer can end a run that never stops.
    leases: async () => {
      await new Promise(setImmediate);
      return held ? ['lock'] : [];
    },
    expire: async () => void (held = false),
    blocked: async () => false,
    kill: () => undefined,
    note: (_worker, words) => void notes.push(words),
  };
  return { run, held: () => held, notes };
}

const poll: StepAt = { kind: 'redis', command: 'SET', keys: ['lock'] };
const sleep: StepAt = { kind: 'yield', why: 'sleep' };

describe('time passing in a run whose workers run tasks side by side', () => {
  it('waits until the run is spinning, then lets the polled lease run out, said in the trace', async () => {
    const scheduler = new StepScheduler();
    const { run, held, notes } = standIn();
    const workers = ['worker-1', 'worker-2'];
    scheduler.bind(workers, run);
    // Each task tries to take the lock until it is free, sleeping between tries.
    const task = async (worker: string): Promise<void> => {
      while (held()) {
        await scheduler.arrive(worker, poll);
        if (held()) await scheduler.arrive(worker, sleep);
      }
    };
    await Promise.all(workers.map((w) => Promise.all([task(w), task(w)]).then(() => scheduler.gone(w))));
    scheduler.stop();

    const ranOut = scheduler.trace.findIndex((d) => d.ranOut !== undefined);
    // Not before: a task of a worker running side by side may be between points.
    expect(ranOut).toBeGreaterThanOrEqual(SPINNING_AFTER);
    expect(ranOut).toBeLessThan(SPINNING_AFTER + 10);
    expect(scheduler.trace[ranOut]!.ranOut).toEqual(['lock']);
    expect(notes).toEqual(["every worker only polls for 'lock': time passes and the lease runs out (Redis's clock)"]);
  });
});
