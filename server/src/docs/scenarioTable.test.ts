// The README's scenario table says what the scenario folders say: a variant added, renamed,
// turned from broken to correct or given other figures without `npm run docs` fails here.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../scenarios/registry.js';
import { readDocument } from './generatedSection.js';
import { SCENARIOS, scenarioTable, variantsWithoutFigures, withScenarios } from './scenarioTable.js';

const readme = readDocument(SCENARIOS);
const catalog = await loadCatalog();

describe('the scenario table', () => {
  it('is up to date in the README (run `npm run docs` after changing a variant)', () => {
    expect(withScenarios(readme, catalog)).toBe(readme);
  });

  it('has a row for every variant of every scenario, each with its figures at the defaults', () => {
    expect(variantsWithoutFigures(catalog)).toEqual([]);
    const variants = catalog.manifests.reduce((n, m) => n + m.variants.length, 0);
    expect(scenarioTable(catalog).split('\n')).toHaveLength(2 + variants);
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
