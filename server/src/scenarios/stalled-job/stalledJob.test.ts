// The stalled-job variants against the real Redis and PostgreSQL and a real bullmq queue, at
// their defaults: worker-1 is stopped (SIGSTOP) 3 s in a 1 s job lock, worker-2's stalled-job
// check moves the job back to wait and runs it, and worker-1 goes on only once worker-2's
// handler is done, so each count is the same on every run. The declared sets and the
// near-misses are in stalledJob.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const { run } = scenarioUnderTest('stalled-job');

describe('stalled-job at its defaults', () => {
  it('plain-insert: bullmq runs the stalled job again and the card is charged twice', async () => {
    const { metrics, verdict, events } = await run('plain-insert');
    expect(metrics).toEqual({ charges: 2, jobStarts: 2 });
    expect(verdict).toBe('fail');
    expect(eventsOf(events, 'process-paused', 'worker-1')).toHaveLength(1);
    // Each worker took the job under its own lock and attempt: worker-1 first, worker-2 after the stall.
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-accepted').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-2', 2],
      ['worker-1', 1],
    ]);
    expect(eventsOf(events, 'note', 'worker-2').map((e) => e.text)).toContain(
      'bullmq: job order-42 stalled (its lock expired); moved back to wait',
    );
  });

  it('unique-job-id: the second run of the job charges nothing', async () => {
    const { metrics, verdict, events } = await run('unique-job-id');
    expect(metrics).toEqual({ charges: 1, jobStarts: 2 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toHaveLength(1);
  });

  it("fenced-attempt: worker-1's late charge is refused by the fence", async () => {
    const { metrics, verdict, events } = await run('fenced-attempt');
    expect(metrics).toEqual({ charges: 1, jobStarts: 2 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([
      expect.objectContaining({ fence: 1, reason: 'a later attempt (2) holds the fence' }),
    ]);
  });
});
