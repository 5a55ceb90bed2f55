// The README's scenario table, written from the scenario folders: each variant, broken or
// correct, and what a run at the defaults gives (its definition's `figures`, measured and
// written beside its code), then a row of links to where the scenario's mistake was seen in
// the wild (its sources.ts). `npm run docs` writes it; a test fails when the README is stale.
import type { WildSource } from '@racelab/shared';
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

/** A scenario's sources as links, one cell: "[title](url) · [title](url)". */
export function wildLinks(sources: readonly WildSource[]): string {
  return sources
    .map((s) => `[${cell(s.title).replaceAll('[', '\\[').replaceAll(']', '\\]')}](${s.url.replaceAll('(', '%28').replaceAll(')', '%29')})`)
    .join(' · ');
}

/**
 * The table, one row per variant of every scenario in teaching order, and after a scenario's
 * variants a row with the links to where it was seen in the wild, when it names any; throws
 * when a variant has no figures.
 */
export function scenarioTable(catalog: Catalog): string {
  const missing = variantsWithoutFigures(catalog);
  if (missing.length > 0) throw new Error(`no figures at the defaults for ${missing.join(', ')}: add a \`figures\` line to each variant`);
  const rows = ['| scenario | variant | | figures at the defaults |', '|---|---|---|---|'];
  for (const scenario of catalog.scenarios.values()) {
    for (const [i, v] of scenario.variants.entries()) {
      rows.push(`| ${i === 0 ? scenario.id : ''} | \`${v.id}\` | ${v.correct ? 'correct' : 'broken'} | ${cell(v.figures!)} |`);
    }
    if (scenario.seenInTheWild?.length) rows.push(`| | seen in the wild | | ${wildLinks(scenario.seenInTheWild)} |`);
  }
  return rows.join('\n').replaceAll('|  |', '| |');
}

/** The README with its scenario table written anew; throws when the markers are missing. */
export function withScenarios(readme: string, catalog: Catalog): string {
  return withSection(readme, SCENARIOS, scenarioTable(catalog));
}
