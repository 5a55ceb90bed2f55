// The scorecard's runner on a small slice, on the real stores: one library × two faults,
// each cell read from its run's metrics, with its parameters and its recording; and a second
// pass gives the same matrix (the full one is `npm run scorecard`, never run by the tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '@racelab/shared';
import { LIBRARY_LOCKS } from '../locks/lockModules.js';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { SCORECARD_FAULTS } from './faults.js';
import { runScorecard, type Scorecard } from './scorecard.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(2);
});
afterAll(() => playground.close());

const lock = LIBRARY_LOCKS.find((l) => l.id === 'lib-microfleet-ioredis-lock')!;
const faults = SCORECARD_FAULTS.filter((f) => f.id === 'stale-write' || f.id === 'renewal-starved' || f.id === 'holder-killed');
const matrix = (card: Scorecard) => card.cells.map((c) => [c.lock, c.fault, c.verdict, c.byDesign ?? false]);

describe('runScorecard', () => {
  it('reads each cell from its run, keeps its parameters and recording, and gives the same matrix twice', async () => {
    const recordings = new Map<string, Recording>();
    const first = await runScorecard(playground, [lock], faults, (file, recording) => recordings.set(file, recording));
    expect(matrix(first)).toEqual([
      ['lib-microfleet-ioredis-lock', 'stale-write', 'stale write accepted', true],
      ['lib-microfleet-ioredis-lock', 'renewal-starved', 'does not apply', false],
      ['lib-microfleet-ioredis-lock', 'holder-killed', 'correct', false],
    ]);
    const stale = first.cells[0]!;
    expect(stale.metrics).toMatchObject({ staleWritesAccepted: 1, maxConcurrentHolders: 2 });
    expect(stale.seenAt).toEqual({ scenario: 'fencing', variant: lock.id, params: { leaseMs: 1000, pauseMs: 2500, workMs: 300 }, faults: [] });
    expect([...recordings.keys()].sort()).toEqual(['holder-killed-lib-microfleet-ioredis-lock.json', 'stale-write-lib-microfleet-ioredis-lock.json']);
    expect(recordings.get(stale.recording!)!.scenario.variants.map((v) => v.id)).toEqual([lock.id]);
    expect(first.cells[1]!.recording).toBeUndefined(); // no run for a fault that does not apply

    const second = await runScorecard(playground, [lock], faults, () => undefined);
    expect(matrix(second)).toEqual(matrix(first));
  }, 60_000);
});
