// The README's scenario table, written from the scenario folders: each variant, broken or
// correct, and what a run at the defaults gives (a scenario's lock libraries folded into one row) (its definition's `figures`, measured and
// written beside its code); for a job queue's, a scheduler's or a pooler's scenario, a row of its
// library under the scorecard's faults (docs/scorecard.json); then a row of links to where the
// scenario's mistake was seen in the wild (its sources.ts). `npm run docs` writes it; a test
// fails when the README is stale.
import type { StackScorecard, WildSource } from '@racelab/shared';
import type { Catalog } from '../scenarios/registry.js';
import { cell, withSection, type SectionMarkers } from './generatedSection.js';
import { STACKS_ANCHOR } from './scorecardTable.js';

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
 * The rows of a scenario's lock-library variants, folded into one: the libraries that give
 * the same verdict and figures share a clause ("`lib-a`, `lib-b` broken: figures"); each
 * library's cells under the faults are the scorecard's (docs/LIBRARIES.md).
 */
export function librariesRow(variants: ReadonlyArray<{ id: string; correct: boolean; figures?: string; library?: object }>): string | null {
  const groups = new Map<string, string[]>();
  for (const v of variants.filter((v) => v.library)) {
    const words = `${v.correct ? 'correct' : 'broken'}: ${cell(v.figures!)}`;
    groups.set(words, [...(groups.get(words) ?? []), `\`${v.id}\``]);
  }
  if (groups.size === 0) return null;
  const clauses = [...groups].map(([words, ids]) => `${ids.join(', ')} ${words}`);
  return `| | lock libraries | | ${clauses.join('; ')} ([scorecard](docs/LIBRARIES.md)) |`;
}

/**
 * A scenario's row of the scorecard's second part: its library, and for each fault that ran,
 * its variants grouped by the verdict they gave; faults that gave the same share a clause
 * ("stopped …, killed …: `a` duplicate work; `b`, `c` correct").
 */
export function underFaultsRow(scenario: string, stacks: StackScorecard | undefined): string | null {
  const rows = stacks?.rows.filter((r) => r.scenario === scenario) ?? [];
  if (!stacks || rows.length === 0) return null;
  const faultsBySaying = new Map<string, string[]>();
  for (const fault of stacks.faults) {
    const verdicts = new Map<string, string[]>();
    for (const row of rows) {
      const ran = stacks.cells.find((c) => c.row === row.id && c.fault === fault.id && c.recording);
      if (ran) verdicts.set(ran.verdict, [...(verdicts.get(ran.verdict) ?? []), `\`${row.variant}\``]);
    }
    if (verdicts.size === 0) continue;
    const saying = [...verdicts].map(([verdict, ids]) => `${ids.join(', ')} ${verdict}`).join('; ');
    faultsBySaying.set(saying, [...(faultsBySaying.get(saying) ?? []), fault.title.toLowerCase()]);
  }
  const clauses = [...faultsBySaying].map(([saying, faults]) => `${faults.join(', ')}: ${saying}`);
  return `| | ${rows[0]!.library} ${rows[0]!.version} under faults | | ${cell(clauses.join(' · '))} ([scorecard](${STACKS_ANCHOR})) |`;
}

/**
 * The table, one row per variant of its own of every scenario in teaching order, one row for
 * its lock-library variants or for its library in the scorecard's second part, and a row with
 * the links to where it was seen in the wild, when it names any; throws when a variant has no figures.
 */
export function scenarioTable(catalog: Catalog, stacks?: StackScorecard): string {
  const missing = variantsWithoutFigures(catalog);
  if (missing.length > 0) throw new Error(`no figures at the defaults for ${missing.join(', ')}: add a \`figures\` line to each variant`);
  const rows = ['| scenario | variant | | figures at the defaults |', '|---|---|---|---|'];
  for (const scenario of catalog.scenarios.values()) {
    for (const [i, v] of scenario.variants.filter((v) => !v.library).entries()) {
      rows.push(`| ${i === 0 ? scenario.id : ''} | \`${v.id}\` | ${v.correct ? 'correct' : 'broken'} | ${cell(v.figures!)} |`);
    }
    const libraries = librariesRow(scenario.variants) ?? underFaultsRow(scenario.id, stacks);
    if (libraries) rows.push(libraries);
    if (scenario.seenInTheWild?.length) rows.push(`| | seen in the wild | | ${wildLinks(scenario.seenInTheWild)} |`);
  }
  return rows.join('\n').replaceAll('|  |', '| |');
}

/** The README with its scenario table written anew; throws when the markers are missing. */
export function withScenarios(readme: string, catalog: Catalog, stacks?: StackScorecard): string {
  return withSection(readme, SCENARIOS, scenarioTable(catalog, stacks));
}
