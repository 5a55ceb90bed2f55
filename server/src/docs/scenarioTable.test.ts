// The README's scenario table says what the scenario folders say: a variant added, renamed,
// turned from broken to correct or given other figures without `npm run docs` fails here.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../scenarios/registry.js';
import { readDocument } from './generatedSection.js';
import {
  librariesRow,
  SCENARIOS,
  scenarioTable,
  underFaultsRow,
  variantsWithoutFigures,
  wildLinks,
  withScenarios,
} from './scenarioTable.js';
import { readScorecard } from './scorecardTable.js';

const readme = readDocument(SCENARIOS);
const catalog = await loadCatalog();
const { stacks } = readScorecard();
/** Does the scenario have a row of its libraries: lock-library variants, or its library in the scorecard's second part? */
const hasLibraries = (id: string) => librariesRow(catalog.scenarios.get(id)!.variants) !== null || underFaultsRow(id, stacks) !== null;

describe('the scenario table', () => {
  it('is up to date in the README (run `npm run docs` after changing a variant)', () => {
    expect(withScenarios(readme, catalog, stacks)).toBe(readme);
  });

  it('has a row for every variant of its own of every scenario, each with its figures at the defaults, one of its libraries, and one of sources', () => {
    expect(variantsWithoutFigures(catalog)).toEqual([]);
    const own = catalog.manifests.reduce((n, m) => n + m.variants.filter((v) => !v.library).length, 0);
    const withLibraries = catalog.manifests.filter((m) => hasLibraries(m.id)).length;
    expect(scenarioTable(catalog, stacks).split('\n')).toHaveLength(2 + own + withLibraries + catalog.manifests.length);
  });

  it("gives each library of the scorecard's second part a row under its scenario: every fault that ran and every variant, linked to the table", () => {
    const table = scenarioTable(catalog, stacks);
    for (const row of stacks!.rows) {
      const line = underFaultsRow(row.scenario, stacks)!;
      expect(table).toContain(line);
      expect(line).toContain(`| | ${row.library} ${row.version} under faults | |`);
      expect(line).toContain('(docs/LIBRARIES.md#job-queues-schedulers-and-poolers-under-faults)');
      const ran = stacks!.cells.filter((c) => c.row === row.id && c.recording);
      expect(ran.length, row.id).toBeGreaterThan(0);
      expect(line).toContain(`\`${row.variant}\``);
      for (const cell of ran) expect(line).toContain(stacks!.faults.find((f) => f.id === cell.fault)!.title.toLowerCase());
    }
    expect(underFaultsRow('duplicate-job', stacks)).toBeNull();
  });

  it("names every library variant once in its scenario's libraries row, with its verdict and figures", () => {
    const table = scenarioTable(catalog);
    for (const scenario of catalog.scenarios.values()) {
      const libraries = scenario.variants.filter((v) => v.library);
      if (libraries.length === 0) continue;
      const row = librariesRow(scenario.variants)!;
      expect(table).toContain(row);
      for (const v of libraries) {
        expect(row.split(`\`${v.id}\``)).toHaveLength(2);
        expect(row).toContain(`${v.correct ? 'correct' : 'broken'}: ${v.figures!}`);
      }
    }
  });

  it("links every scenario's sources, in the row after its variants", () => {
    const rows = scenarioTable(catalog, stacks).split('\n');
    for (const manifest of catalog.manifests) {
      const first = rows.findIndex((row) => row.startsWith(`| ${manifest.id} |`));
      const own = manifest.variants.filter((v) => !v.library);
      const last = first + own.length - (hasLibraries(manifest.id) ? 0 : 1);
      expect(rows[first + own.length - 1]).toContain(`| \`${own.at(-1)!.id}\` |`);
      expect(rows[last + 1]).toBe(`| | seen in the wild | | ${wildLinks(manifest.seenInTheWild!)} |`);
      for (const source of manifest.seenInTheWild!) expect(rows[last + 1]).toContain(`](${source.url})`);
    }
  });

  it('writes a link whose title has a pipe or brackets so that it stays one cell and one link', () => {
    expect(wildLinks([{ title: 'a | b [c]', url: 'https://example.org/x', summary: 's' }])).toBe(
      '[a \\| b \\[c\\]](https://example.org/x)',
    );
  });

  it('refuses a variant with no figures, naming it', () => {
    const [first] = catalog.scenarios.values();
    const bare = { ...first!, variants: [{ ...first!.variants[0]!, figures: undefined }] };
    expect(() => scenarioTable({ ...catalog, scenarios: new Map([[bare.id, bare]]) })).toThrow(
      `no figures at the defaults for ${bare.id}/${bare.variants[0]!.id}`,
    );
  });

  it('refuses a README whose markers are missing', () => {
    expect(() => withScenarios('# no table here', catalog)).toThrow('README.md has no scenarios section');
  });
});
