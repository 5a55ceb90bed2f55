import { describe, expect, it } from 'vitest';
import { progressWords } from './progressLine.js';

describe('the progress line', () => {
  it('says the schedules, the failing, the rate and the schedules left at that rate', () => {
    const words = progressWords({ played: 10, failing: 3, elapsedMs: 5000 }, { budget: 40, timeMs: 600_000 });
    expect(words).toBe('10 schedules, 3 failing, 2.0 schedules/s, about 15 s left of the budget');
  });

  it('says the minutes left when they end first', () => {
    const words = progressWords({ played: 1, failing: 0, elapsedMs: 50_000 }, { budget: 100, timeMs: 60_000 });
    expect(words).toBe('1 schedule, 0 failing, 0.0 schedules/s, about 10 s left of the budget');
  });
});
