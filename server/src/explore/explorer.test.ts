// The explorer on real workers and the real stores: it finds lost-update's race without the
// scenario's choreography (the schedule orders the admins' statements), finds none in the
// atomic update, and a schedule it found plays again to the same figures; a near-miss's failure
// counts only where its correct variant does not fail the same schedule the same way. Faults placed by
// the search: explorerFaults.test.ts (npm run test:full).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricSpec } from '@racelab/shared';
import { openTestPlayground } from '../testing/testPlayground.js';
import type { Playground } from '../runs/playground.js';
import { explore, play, type ExploreRequest } from './explorer.js';
import { storyOf } from './story.js';

let playground: Playground;
const metricsOf = (scenario: string): MetricSpec[] => playground.catalog.manifests.find((m) => m.id === scenario)!.metrics;
const search = (scenario: string, variant: string, more: Partial<ExploreRequest>) =>
  explore(
    playground,
    { scenario, variant, params: {}, bound: 2, budget: 10, timeMs: 300_000, faults: { expire: true, kill: true }, ...more },
    metricsOf(scenario),
  );

beforeAll(async () => {
  playground = await openTestPlayground(3);
});
afterAll(() => playground.close());

describe('exploring schedules', () => {
  it("finds lost-update's lost sale with no preemption and no fault, and plays it again to the same stock", async () => {
    const found = await search('lost-update', 'read-modify-write', { firstFailure: true });
    const smallest = found.smallest!;
    expect(smallest.cost).toEqual({ preemptions: 0, faults: 0 });
    expect(smallest.metrics.finalStock).not.toBe(smallest.metrics.expectedStock);
    // Both admins read the stock before either writes: the schedule, not a latch, ordered them.
    const story = storyOf(smallest.trace);
    const reads = story.filter((line) => line.includes('select stock from products'));
    const firstWrite = story.findIndex((line) => line.includes('update products'));
    expect(reads).toHaveLength(2);
    expect(story.indexOf(reads[1]!)).toBeLessThan(firstWrite);
    const again = await play(
      playground,
      { scenario: 'lost-update', variant: 'read-modify-write', params: {} },
      smallest.choices,
      metricsOf('lost-update'),
    );
    expect(again.outcome).toBe('fail');
    expect(again.metrics.finalStock).toBe(smallest.metrics.finalStock);
    expect(again.trace.some((d) => d.diverged)).toBe(false);
  });

  it("a near-miss's failing schedule is its own only where the correct variant it changes does not fail it the same way", async () => {
    const nearMiss = { scenario: 'lost-update', variant: 'select-for-update-without-lock', params: {}, mutants: true };
    // The default order: both admins read before either writes, and the unlocked read loses a sale.
    const own = await play(playground, nearMiss, [], metricsOf('lost-update'));
    expect(own.outcome).toBe('fail');
    expect(own.assumption).toBeUndefined();
    // admin-1 killed at its first step: its sale is lost in select-for-update as well.
    const any = await play(playground, nearMiss, [{ worker: 'admin-1', kill: true }], metricsOf('lost-update'));
    expect(any.outcome).toBe('fail');
    expect(any.assumption).toBe(
      'select-for-update, the correct variant it changes, fails this schedule the same way (every admin lives to finish its sale)',
    );
  });

  it('finds no failing schedule of the atomic update among those it runs', async () => {
    const found = await search('lost-update', 'atomic-update', { bound: 1, budget: 6 });
    expect(found.played.length).toBeGreaterThanOrEqual(2);
    expect(found.played.map((p) => p.outcome)).toEqual(found.played.map(() => 'pass'));
    expect(found.played.every((p) => p.metrics.finalStock === 5)).toBe(true);
  });
});
