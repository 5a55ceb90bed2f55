// duplicate-job held to the explorer from its defaults, as `npm run explore -- --all` holds it: a
// failing schedule found for each broken variant and near-miss, and for each correct variant
// none, or only schedules that break an assumption its verdict rests on (npm run test:full:
// dozens of real runs).
import { describe, expect, it } from 'vitest';
import { EXPLORED_IN_TESTS, exploredFromDefaults } from '../../testing/exploredFromDefaults.js';

describe('duplicate-job explored from its defaults', () => {
  it('finds the failures of the broken variants and near-misses, and none of the correct ones', async () => {
    const { rows, unexpected, words } = await exploredFromDefaults('duplicate-job');
    expect(unexpected).toEqual([]);
    expect(rows.filter((r) => r.asExpected === true).length).toBeGreaterThan(0);
    // The holder killed while it has the key that never expires: nobody sends.
    expect(words['setnx-no-expiry']).toMatch(/^found: 0p 1f, \d+ decisions: E-mails sent: 0 — should be 1$/);
  }, 900_000);

  it('keeps the second e-mail of pg-advisory apart, as the containers not arriving together', async () => {
    // worker-1 sends and unlocks before another takes the advisory lock: a second e-mail, from a
    // schedule that broke the arrival together the verdict rests on, not a failure of the lock.
    const { words } = await exploredFromDefaults('duplicate-job', { ...EXPLORED_IN_TESTS, correctBudget: 20 }, ['pg-advisory']);
    expect(words['pg-advisory']).toMatch(/^assumption broken: .*the containers arrive together/);
  }, 300_000);
});
