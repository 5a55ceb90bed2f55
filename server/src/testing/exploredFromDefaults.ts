// A scenario held to the explorer from its defaults, as `npm run explore -- --all` holds it, on
// a playground of its own: every variant and near-miss explored one after another, and the rows
// that are not what their kind expects, in words. The budgets keep a scenario to a minute or
// two on 2 cores: a broken variant stops at its first failure, a correct one runs a few schedules.
import { describe, expect, it } from 'vitest';
import {
  exploreScenario,
  mostWorkers,
  resultWords,
  variantsOf,
  type ExploreLimits,
  type ExploredRow,
} from '../explore/exploreCatalogue.js';
import { loadCatalog } from '../scenarios/registry.js';
import { openTestPlayground } from './testPlayground.js';

export const EXPLORED_IN_TESTS: ExploreLimits = { bound: 2, budget: 100, correctBudget: 2, timeMs: 120_000, parallel: 2 };

export interface ExploredScenario {
  rows: ExploredRow[];
  /** "variant (kind): result" for each row not as its kind expects. */
  unexpected: string[];
  /** Each row's result in the table's words, by variant id. */
  words: Record<string, string>;
}

/** Explores every variant and near-miss of the scenario from its defaults (or only those named in `only`). */
export async function exploredFromDefaults(scenario: string, limits = EXPLORED_IN_TESTS, only?: string[]): Promise<ExploredScenario> {
  const playground = await openTestPlayground(mostWorkers(await loadCatalog(), scenario) * (limits.parallel ?? 1));
  try {
    const rows = await exploreScenario(playground, scenario, limits, undefined, only);
    return {
      rows,
      unexpected: rows.filter((r) => r.asExpected === false).map((r) => `${r.variant} (${r.kind}): ${resultWords(r)}`),
      words: Object.fromEntries(rows.map((r) => [r.variant, resultWords(r)])),
    };
  } finally {
    await playground.close();
  }
}

/** Rows a scenario's test leaves to `npm run explore -- --all`, and why (the search's cost, measured). */
export interface LeftToTheTable {
  variants: string[];
  why: string;
}

/**
 * A scenario's test file held to the explorer from its defaults, as `npm run explore -- --all`
 * holds it: a failing schedule found for each broken variant and near-miss, and for each correct
 * variant none, or only schedules that break an assumption its verdict rests on (npm run
 * test:full: dozens of real runs). A file for each scenario, so that two run side by side;
 * `more` reads the rows further. Rows in `left` are not explored here: the table in
 * docs/EXPLORE.md, from `--all`, gives them.
 */
export function exploredFromDefaultsTest(scenario: string, more?: (explored: ExploredScenario) => void, left?: LeftToTheTable): void {
  describe(`${scenario} explored from its defaults`, () => {
    it(`finds the failures of the broken variants and near-misses, and none of the correct ones${left ? ` (all but ${left.variants.join(', ')})` : ''}`, async () => {
      const ids = variantsOf((await loadCatalog()).scenarios.get(scenario)!).map((v) => v.definition.id);
      for (const id of left?.variants ?? []) expect(ids, `${scenario} has no variant or near-miss ${id}`).toContain(id);
      const explored = await exploredFromDefaults(scenario, EXPLORED_IN_TESTS, left && ids.filter((id) => !left.variants.includes(id)));
      expect(explored.unexpected).toEqual([]);
      expect(explored.rows.filter((r) => r.asExpected === true).length).toBeGreaterThan(0);
      more?.(explored);
    }, 900_000);
  });
}
