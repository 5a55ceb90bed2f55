// The README's scenario table, written from the scenario folders: each variant, broken or
// correct, and what a run at the defaults gives (its definition's `figures`, measured and
// written beside its code). `npm run docs` writes it; a test fails when the README is stale.
import type { Catalog } from '../scenarios/registry.js';
import { cell, withSection, type SectionMarkers } from './generatedSection.js';

export const SCENARIOS: SectionMarkers = {
  name: 'scenarios',
  file: 'README.md',
  start: '<!-- scenarios: written by `npm run docs` from the scenario folders; do not edit by hand -->',
  end: '<!-- end of scenarios -->',
};

/** Variants with no `figures` line, as "scenario/variant". */
export function variantsWithoutFigures(catalog: Catalog): string[] {
  return [...catalog.scenarios.values()].flatMap((s) => s.variants.filter((v) => !v.figures?.trim()).map((v) => `${s.id}/${v.id}`));
}

/** The table, one row per variant of every scenario, in teaching order; throws when a variant has no figures. */
export function scenarioTable(catalog: Catalog): string {
  const missing = variantsWithoutFigures(catalog);
  if (missing.length > 0) throw new Error(`no figures at the defaults for ${missing.join(', ')}: add a \`figures\` line to each variant`);
  const rows = ['| scenario | variant | | figures at the defaults |', '|---|---|---|---|'];
  for (const scenario of catalog.scenarios.values()) {
    for (const [i, v] of scenario.variants.entries()) {
      rows.push(`| ${i === 0 ? scenario.id : ''} | \`${v.id}\` | ${v.correct ? 'correct' : 'broken'} | ${cell(v.figures!)} |`);
    }
  }
  return rows.join('\n').replaceAll('|  |', '| |');
}

/** The README with its scenario table written anew; throws when the markers are missing. */
export function withScenarios(readme: string, catalog: Catalog): string {
  return withSection(readme, SCENARIOS, scenarioTable(catalog));
}
