// The expired-job variants at the declared sets, the near-misses red where the variant they
// mutate passes, and a pause at the expiry's edge refused. This file holds the parameters;
// expiredJob.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('expired-job');
const { run, mutant } = tested;

describe('expired-job at its declared sets', () => {
  it('a 6 s pause on a job that expires after 2 s: the job runs twice; only the keyed and transactional charges land once', async () => {
    const params = { expireInSeconds: 2, pauseMs: 6000 };
    expect((await run('plain-insert', params)).metrics).toEqual({ charges: 2, jobStarts: 2 });
    for (const variant of ['unique-job-id', 'complete-in-transaction']) {
      const { metrics, verdict } = await run(variant, params);
      expect([metrics, verdict]).toEqual([{ charges: 1, jobStarts: 2 }, 'pass']);
    }
  });

  it('a 500 ms pause on a job that expires after 2 s: nobody runs the job twice, and every variant charges once', async () => {
    for (const variant of ['plain-insert', 'unique-job-id', 'complete-in-transaction']) {
      const { metrics, verdict, events } = await run(variant, { expireInSeconds: 2, pauseMs: 500 });
      expect([metrics, verdict]).toEqual([{ charges: 1, jobStarts: 1 }, 'pass']);
      expect(eventsOf(events, 'lease-acquired').map((e) => e.workerId)).toEqual(['worker-1']);
    }
  });
});

describe('expired-job with worker-1 killed after its charge', () => {
  it('the job expires and is retried: the plain charge lands twice, the keyed one and the transactional one once', async () => {
    const params = { fault: 'kill' };
    const plain = await run('plain-insert', params);
    expect([plain.metrics, plain.verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
    expect(eventsOf(plain.events, 'process-paused')).toEqual([]);
    for (const variant of ['unique-job-id', 'complete-in-transaction']) {
      const { metrics, verdict, events } = await run(variant, params);
      expect([metrics, verdict]).toEqual([{ charges: 1, jobStarts: 2 }, 'pass']);
      // Only worker-2's charge is reported: worker-1 was killed before it could say anything of its own.
      expect(eventsOf(events, 'write-accepted').map((e) => e.workerId)).toEqual(variant === 'unique-job-id' ? ['worker-1'] : ['worker-2']);
    }
  });
});

describe("expired-job's near-misses", () => {
  it('key-per-attempt: a unique key, but a new one for the retry of the job: two charges', async () => {
    const { metrics, verdict } = await mutant('key-per-attempt');
    expect([metrics, verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
  });

  it("commit-whatever-completed: worker-1's completion changes nothing, and its charge commits anyway", async () => {
    const { metrics, verdict, events } = await mutant('commit-whatever-completed');
    expect([metrics, verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
    expect(eventsOf(events, 'note', 'worker-1').map((e) => e.text)).toContain('pg-boss: completion refused (the job is no longer active)');
  });

  it("complete-after-commit: worker-1's charge has committed before pg-boss refuses its completion", async () => {
    const { metrics, verdict, events } = await mutant('complete-after-commit');
    expect([metrics, verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
    expect(eventsOf(events, 'write-accepted').map((e) => e.workerId)).toEqual(['worker-2', 'worker-1']);
  });
});

describe('expired-job refuses a pause at the edge of the expiry', () => {
  it('names the pauses that would decide the verdict by themselves', () => {
    const prepared = tested.playground.prepare({
      scenario: 'expired-job',
      variant: 'plain-insert',
      params: { expireInSeconds: 1, pauseMs: 1500 },
    });
    expect(prepared).toEqual({
      ok: false,
      error:
        "a pause of 1500 ms is too close to the job's 1000 ms expiry and pg-boss's maintenance: use at most 500 ms (the job completes in time) or at least 3500 ms (the job is surely retried)",
    });
  });
});
