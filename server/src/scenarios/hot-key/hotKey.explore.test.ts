// hot-key held to the explorer from its defaults, as `npm run explore -- --all` holds it: a
// failing schedule found for each broken variant and near-miss, and for each correct variant
// none, or only schedules that break an assumption its verdict rests on (npm run test:full:
// dozens of real runs).
import { describe, expect, it } from 'vitest';
import { exploredFromDefaults } from '../../testing/exploredFromDefaults.js';

describe('hot-key explored from its defaults', () => {
  it('finds the failures of the broken variants and near-misses, and none of the correct ones', async () => {
    const { rows, unexpected } = await exploredFromDefaults('hot-key');
    expect(unexpected).toEqual([]);
    expect(rows.filter((r) => r.asExpected === true).length).toBeGreaterThan(0);
  }, 900_000);
});
