// The stalled-job variants at the declared sets, the near-misses red where the variant they
// mutate passes, and a pause at the lock's edge refused. This file holds the parameters;
// stalledJob.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('stalled-job');
const { run, mutant } = tested;

describe('stalled-job at its declared sets', () => {
  it('a 6 s pause in a 2 s lock: the job runs twice; only the keyed and fenced charges land once', async () => {
    const params = { lockDurationMs: 2000, pauseMs: 6000 };
    expect((await run('plain-insert', params)).metrics).toEqual({ charges: 2, jobStarts: 2 });
    for (const variant of ['unique-job-id', 'fenced-attempt']) {
      const { metrics, verdict } = await run(variant, params);
      expect([metrics, verdict]).toEqual([{ charges: 1, jobStarts: 2 }, 'pass']);
    }
  });

  it('a 500 ms pause in a 2 s lock: nobody runs the job twice, and every variant charges once', async () => {
    for (const variant of ['plain-insert', 'unique-job-id', 'fenced-attempt']) {
      const { metrics, verdict, events } = await run(variant, { lockDurationMs: 2000, pauseMs: 500 });
      expect([metrics, verdict]).toEqual([{ charges: 1, jobStarts: 1 }, 'pass']);
      expect(eventsOf(events, 'lease-acquired').map((e) => e.workerId)).toEqual(['worker-1']);
    }
  });
});

describe('stalled-job with the other faults: the same counts', () => {
  it("worker-1's event loop blocked 6 s in a 2 s lock: no signal, yet bullmq's renewal starves and the job runs twice", async () => {
    const params = { lockDurationMs: 2000, fault: 'block', pauseMs: 6000 };
    const plain = await run('plain-insert', params);
    expect([plain.metrics, plain.verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
    expect(eventsOf(plain.events, 'process-paused')).toEqual([]);
    expect(eventsOf(plain.events, 'event-loop-blocked').map((e) => e.workerId)).toEqual(['worker-1']);
    const fenced = await run('fenced-attempt', params);
    expect([fenced.metrics, fenced.verdict]).toEqual([{ charges: 1, jobStarts: 2 }, 'pass']);
  });

  it('worker-1 killed after its charge: the job stays active until its lock expires, and worker-2 runs it again', async () => {
    const params = { lockDurationMs: 1000, fault: 'kill' };
    const plain = await run('plain-insert', params);
    expect([plain.metrics, plain.verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
    expect(eventsOf(plain.events, 'write-accepted').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    for (const variant of ['unique-job-id', 'fenced-attempt']) {
      const { metrics, verdict } = await run(variant, params);
      expect([metrics, verdict], variant).toEqual([{ charges: 1, jobStarts: 2 }, 'pass']);
    }
  });
});

describe("stalled-job's near-misses", () => {
  it('key-per-attempt: a unique key, but a new one for the second run of the job: two charges', async () => {
    const { metrics, verdict } = await mutant('key-per-attempt');
    expect([metrics, verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
  });

  it('check-then-insert: worker-1 checked before it was stopped, and inserts on what it saw then', async () => {
    const { metrics, verdict, events } = await mutant('check-then-insert');
    expect([metrics, verdict]).toEqual([{ charges: 2, jobStarts: 2 }, 'fail']);
    expect(eventsOf(events, 'write-accepted').map((e) => e.workerId)).toEqual(['worker-2', 'worker-1']);
  });
});

describe('stalled-job refuses a pause at the edge of the lock', () => {
  it('names the pauses that would decide the verdict by themselves', () => {
    const prepared = tested.playground.prepare({
      scenario: 'stalled-job',
      variant: 'plain-insert',
      params: { lockDurationMs: 1000, pauseMs: 1200 },
    });
    expect(prepared).toEqual({
      ok: false,
      error:
        'a pause of 1200 ms is too close to the 1000 ms lock and its stalled-job checks: use at most 700 ms (the lock holds) or at least 2300 ms (the job surely stalls)',
    });
  });
});
