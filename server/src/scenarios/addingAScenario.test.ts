// Adding a scenario is adding one folder: the fixture `tally` (testing/fixtures/scenarios/)
// is named by no other file. Given as a folder of scenario folders (RACELAB_SCENARIOS), it
// is in the catalog with its code and explanation, and runs end to end on the real stores
// and worker processes with the verdict its variants are built to give.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground, play, eventsOf } from '../testing/testPlayground.js';

// Worker processes run the built JavaScript and inherit the variable: set before the pool forks them.
process.env.RACELAB_SCENARIOS = fileURLToPath(new URL('../../dist/testing/fixtures/scenarios/', import.meta.url));

describe('a scenario added as one folder', () => {
  let playground: Playground;
  beforeAll(async () => {
    playground = await openTestPlayground(5);
  });
  afterAll(async () => {
    await playground?.close();
    delete process.env.RACELAB_SCENARIOS;
  });

  it('is in the catalog with its variants, their code and its explanation', () => {
    const tally = playground.catalog.manifests.find((m) => m.id === 'tally');
    expect(tally?.variants.map((v) => [v.id, v.correct])).toEqual([
      ['read-then-write', false],
      ['atomic-increment', true],
    ]);
    expect(tally?.variants[1]?.code).toContain('update counter set visits = visits + 1 where id = 1');
    expect(tally?.explanation).toContain('asking the database to add one counts them all');
    expect(tally?.variants[0]?.expected).toEqual([{ verdict: 'fail' }, { verdict: 'fail' }]);
    // racelab's own scenarios are all still there, in their teaching order, the fixture last.
    expect(playground.catalog.manifests[0]?.id).toBe('duplicate-job');
    expect(playground.catalog.manifests.at(-1)?.id).toBe('tally');
  });

  it('loses visits when each worker writes back what it read, counted in PostgreSQL', async () => {
    const played = await play(playground, 'tally', 'read-then-write');
    expect(played.verdict).toBe('fail');
    expect(played.metrics.visits).toBe(1);
    expect(eventsOf(played.events, 'value-read').map((e) => e.value)).toEqual([0, 0, 0]);
  });

  it('counts every visit when the database adds one, at the defaults and at five workers', async () => {
    const three = await play(playground, 'tally', 'atomic-increment');
    expect([three.verdict, three.metrics.visits]).toEqual(['pass', 3]);
    const five = await play(playground, 'tally', 'atomic-increment', { workers: 5 });
    expect([five.verdict, five.metrics.visits]).toEqual(['pass', 5]);
  });
});
