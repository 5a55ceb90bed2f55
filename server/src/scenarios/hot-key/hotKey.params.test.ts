// Both hot-key variants against the real Redis and PostgreSQL, at their defaults and at
// other parameters. Every job is ready before any starts and none finishes before all
// have tried their lock, so the overlaps are the same on every run.
// This file holds the parameters; hotKey.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('hot-key');
const { run } = tested;

describe('hot-key honours its parameters', () => {
  it('more workers do not help a global key', async () => {
    const { metrics } = await run('global-key', { jobs: 8, workers: 10, jobMs: 100 });
    expect(metrics).toEqual({ jobsDone: 8, maxParallelJobs: 1, maxParallelPerEntity: 1, wallMs: 800 });
  });

  it('one worker process still runs every customer side by side with per-entity keys', async () => {
    const { metrics, verdict } = await run('per-entity-key', { jobs: 12, entities: 4, workers: 1, jobMs: 150 });
    expect(metrics).toEqual({ jobsDone: 12, maxParallelJobs: 4, maxParallelPerEntity: 1, wallMs: 450 });
    expect(verdict).toBe('pass');
  });

  it('uneven spread: 7 jobs over 3 customers and 2 workers', async () => {
    // customer-1 gets jobs 1, 4, 7: three job lengths.
    const params = { jobs: 7, entities: 3, workers: 2, jobMs: 120 };
    const correct = await run('per-entity-key', params);
    expect(correct.metrics).toEqual({ jobsDone: 7, maxParallelJobs: 3, maxParallelPerEntity: 1, wallMs: 360 });
    const broken = await run('global-key', params);
    expect(broken.metrics).toEqual({ jobsDone: 7, maxParallelJobs: 1, maxParallelPerEntity: 1, wallMs: 840 });
    expect(broken.verdict).toBe('fail');
  });

  it('one customer: both variants are the same queue, and both pass', async () => {
    for (const variant of ['global-key', 'per-entity-key']) {
      const { metrics, verdict } = await run(variant, { jobs: 4, entities: 1, workers: 2, jobMs: 100 });
      expect(metrics).toEqual({ jobsDone: 4, maxParallelJobs: 1, maxParallelPerEntity: 1, wallMs: 400 });
      expect(verdict).toBe('pass');
    }
  });

  it('more customers than jobs: every job runs at once', async () => {
    const { metrics } = await run('per-entity-key', { jobs: 3, entities: 10, workers: 3, jobMs: 300 });
    expect(metrics).toEqual({ jobsDone: 3, maxParallelJobs: 3, maxParallelPerEntity: 1, wallMs: 300 });
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'hot-key', variant: 'global-key', params: { jobMs: 50 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'jobMs' must be an integer from 100 to 2000, got 50" });
  });
});
