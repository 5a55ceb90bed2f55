// The expired-job variants against the real PostgreSQL and a real pg-boss queue in the run's
// schema, at their defaults: worker-1 is stopped (SIGSTOP) 4 s on a job that expires after 1 s,
// worker-2's pg-boss expires the job and worker-2 runs it again, and worker-1 goes on only once
// worker-2's handler is done, so each count is the same on every run. The declared sets and the
// near-misses are in expiredJob.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const { run } = scenarioUnderTest('expired-job');

describe('expired-job at its defaults', () => {
  it('plain-insert: pg-boss retries the expired job and the card is charged twice', async () => {
    const { metrics, verdict, events } = await run('plain-insert');
    expect(metrics).toEqual({ charges: 2, jobStarts: 2 });
    expect(verdict).toBe('fail');
    expect(eventsOf(events, 'process-paused', 'worker-1')).toHaveLength(1);
    // Each worker fetched the job as its own attempt: worker-1 first, worker-2 after the expiry.
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-accepted').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-2', 2],
      ['worker-1', 1],
    ]);
  });

  it('unique-job-id: the retry of the job charges nothing', async () => {
    const { metrics, verdict, events } = await run('unique-job-id');
    expect(metrics).toEqual({ charges: 1, jobStarts: 2 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toHaveLength(1);
  });

  it("complete-in-transaction: worker-1's charge rolls back with its refused completion", async () => {
    const { metrics, verdict, events } = await run('complete-in-transaction');
    expect(metrics).toEqual({ charges: 1, jobStarts: 2 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(eventsOf(events, 'note', 'worker-1').map((e) => e.text)).toContain('pg-boss: completion refused (the job is no longer active)');
  });
});
