// pooled-advisory-lock at its declared sets, and its near-miss red where xact-lock passes.
// This file holds the parameters; pooledAdvisoryLock.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const { run, mutant } = scenarioUnderTest('pooled-advisory-lock');

describe('pooled-advisory-lock at its declared sets', () => {
  it.each([300, 3000])('%i ms of work: the session lock is shared, the transaction lock is not', async (workMs) => {
    const session = await run('session-lock', { workMs });
    expect([session.metrics, session.verdict]).toEqual([{ maxConcurrentHolders: 2, backends: 1 }, 'fail']);
    const xact = await run('xact-lock', { workMs });
    expect([xact.metrics, xact.verdict]).toEqual([{ maxConcurrentHolders: 1, backends: 1 }, 'pass']);
  });
});

describe("pooled-advisory-lock's near-miss", () => {
  it('xact-lock-own-statement: the lock ends with its own statement, and both workers hold it', async () => {
    const { metrics, verdict } = await mutant('xact-lock-own-statement');
    expect([metrics, verdict]).toEqual([{ maxConcurrentHolders: 2, backends: 1 }, 'fail']);
  });
});
