// Adding a scenario is adding one folder: the fixture `tally` (testing/fixtures/scenarios/)
// is named by no other file. Given as a folder of scenario folders (RACELAB_SCENARIOS), it
// is in the catalog with its code, its explanation and its declared sets, after racelab's
// own. That it runs end to end on the real stores and worker processes with the verdicts its
// variants are built to give is the folder's own test (`tally.test.ts`), as for any scenario.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './registry.js';

process.env.RACELAB_SCENARIOS = fileURLToPath(new URL('../../dist/testing/fixtures/scenarios/', import.meta.url));
const catalog = await loadCatalog();
delete process.env.RACELAB_SCENARIOS;

describe('a scenario added as one folder', () => {
  it('is in the catalog with its variants, their code and its explanation', () => {
    const tally = catalog.manifests.find((m) => m.id === 'tally');
    expect(tally?.variants.map((v) => [v.id, v.correct])).toEqual([
      ['read-then-write', false],
      ['atomic-increment', true],
    ]);
    expect(tally?.variants[1]?.code).toContain('update counter set visits = visits + 1 where id = 1');
    expect(tally?.explanation).toContain('asking the database to add one counts them all');
    // racelab's own scenarios are all still there, in their teaching order, the fixture last.
    expect(catalog.manifests[0]?.id).toBe('duplicate-job');
    expect(catalog.manifests.at(-1)?.id).toBe('tally');
  });

  it('has what the recipe requires: two declared sets, each variant expected there, a near-miss', () => {
    const tally = catalog.manifests.find((m) => m.id === 'tally');
    expect(tally?.declaredSets).toEqual([{ workers: 5 }, { workers: 1 }]);
    // Alone (workers=1), read-then-write has no one to race: it is expected to pass there.
    expect(tally?.variants.map((v) => v.expected?.map((e) => e.verdict))).toEqual([
      ['fail', 'fail', 'pass'],
      ['pass', 'pass', 'pass'],
    ]);
    expect(catalog.scenarios.get('tally')?.mutants?.map((m) => [m.id, m.of, m.failsAt])).toEqual([
      ['guard-without-retry', 'atomic-increment', {}],
    ]);
  });
});
