// The explorer's faults, on real workers and the real stores: fencing's stale write shows in
// no ordering of the workers alone, and is found once the search may let the lease run out on
// Redis's clock; the story says where it ran out. (Each search runs dozens of real runs:
// npm run test:full.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPlayground } from '../testing/testPlayground.js';
import type { Playground } from '../runs/playground.js';
import { explore, type ExploreRequest } from './explorer.js';
import { storyOf } from './story.js';

let playground: Playground;
const search = (variant: string, more: Partial<ExploreRequest>) =>
  explore(
    playground,
    { scenario: 'fencing', variant, params: {}, bound: 2, budget: 10, timeMs: 600_000, faults: { expire: true, kill: false }, ...more },
    playground.catalog.manifests.find((m) => m.id === 'fencing')!.metrics,
  );

beforeAll(async () => {
  playground = await openTestPlayground(3);
});
afterAll(() => playground.close());

describe('exploring with faults', () => {
  it("finds fencing's stale write only with the lease running out, and the story says where", async () => {
    const orderOnly = await search('lease-only', { faults: { expire: false, kill: false }, budget: 6 });
    expect(orderOnly.failing).toEqual([]);
    const found = await search('lease-only', { faults: { expire: true, kill: false }, budget: 60, firstFailure: true });
    const smallest = found.smallest!;
    expect(smallest.cost.faults).toBe(1);
    expect(smallest.metrics.staleWritesAccepted).toBe(1);
    const story = storyOf(smallest.trace);
    const expiry = story.indexOf("the lease 'lock:document' runs out (Redis's clock)");
    // One worker held the lease before it ran out; the other took it after.
    const takes = story.map((line, i) => ({ line, i })).filter(({ line }) => line.endsWith(': SET lock:document'));
    const before = takes.filter(({ i }) => i < expiry).at(-1);
    const after = takes.find(({ i }) => i > expiry);
    expect(before).toBeDefined();
    expect(after?.line.split(':')[0]).not.toBe(before!.line.split(':')[0]);
    // The run's timeline says so, in the lane of the worker that went next.
    expect(smallest.events.some((e) => e.type === 'note' && e.text.includes('run out'))).toBe(true);
  }, 900_000);
});
