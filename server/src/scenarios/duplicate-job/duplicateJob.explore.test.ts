// duplicate-job held to the explorer from its defaults (testing/exploredFromDefaults.ts), and
// pg-advisory's second e-mail kept apart as an assumption broken.
import { describe, expect, it } from 'vitest';
import { EXPLORED_IN_TESTS, exploredFromDefaults, exploredFromDefaultsTest } from '../../testing/exploredFromDefaults.js';

exploredFromDefaultsTest(
  'duplicate-job',
  ({ words }) => {
    // The holder killed while it has the key that never expires: nobody sends.
    expect(words['setnx-no-expiry']).toMatch(/^found: 0p 1f, \d+ decisions: E-mails sent: 0 — should be 1$/);
  },
  {
    variants: ['token-lua-plain-del', 'token-lua-constant-token', 'token-lua-release-only-on-success'],
    why:
      'the first two are found at the 62nd schedule each and the third plays all 100 without one of its own: ' +
      '90 s of the scenario’s 123 on a quiet machine (2026-12-07), whose file took 212 s beside the rest of the suite',
  },
);

describe('duplicate-job pg-advisory explored', () => {
  it('keeps the second e-mail of pg-advisory apart, as the containers not arriving together', async () => {
    // worker-1 sends and unlocks before another takes the advisory lock: a second e-mail, from a
    // schedule that broke the arrival together the verdict rests on, not a failure of the lock.
    const { words } = await exploredFromDefaults('duplicate-job', { ...EXPLORED_IN_TESTS, correctBudget: 20 }, ['pg-advisory']);
    expect(words['pg-advisory']).toMatch(/^assumption broken: .*the containers arrive together/);
  }, 300_000);
});
