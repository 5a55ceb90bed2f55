// The table of docs/EXERCISES.md, written from the scenario folders: each scenario's exercise
// (the broken variant it starts from, its reference solution), the parameter sets a fix is
// graded at (the defaults and the declared sets where the solution is expected to pass) and
// the solution's near-misses. `npm run docs` writes it; a test fails when it is stale.
import { formatParam, type Params } from '@racelab/shared';
import type { Catalog } from '../scenarios/registry.js';
import { cell, withSection, type SectionMarkers } from './generatedSection.js';

export const EXERCISES: SectionMarkers = {
  name: 'exercises',
  file: 'docs/EXERCISES.md',
  start: '<!-- exercises: written by `npm run docs` from the scenario folders; do not edit by hand -->',
  end: '<!-- end of exercises -->',
};

/** A parameter set in words: "defaults", or "workers=5 arrival=together". */
export function setWords(set: Params): string {
  const entries = Object.entries(set);
  return entries.length === 0 ? 'defaults' : entries.map(([name, value]) => `${name}=${formatParam(value)}`).join(' ');
}

/** The sets a fix of the scenario is graded at, in order: the defaults, then each declared set where the solution is expected to pass. */
export function gradedSets(catalog: Catalog, scenarioId: string): Params[] {
  const scenario = catalog.scenarios.get(scenarioId)!;
  const solution = catalog.manifests.find((m) => m.id === scenarioId)!.variants.find((v) => v.id === scenario.exercise!.solution)!;
  const sets = [{}, ...(scenario.stabilityParams ?? [])];
  return sets.filter((_, i) => solution.expected?.[i]?.verdict === 'pass');
}

/** The table, one row per scenario in teaching order; throws naming the scenarios that are no exercise. */
export function exerciseTable(catalog: Catalog): string {
  const missing = [...catalog.scenarios.values()].filter((s) => !s.exercise).map((s) => s.id);
  if (missing.length > 0) throw new Error(`no exercise for ${missing.join(', ')}: add an exercise.ts to each folder`);
  const rows = ['| scenario | start from | reference solution | sets graded | near-misses |', '|---|---|---|---|---|'];
  for (const scenario of catalog.scenarios.values()) {
    const { from, solution } = scenario.exercise!;
    const sets = gradedSets(catalog, scenario.id).map(setWords).join('; ');
    const nearMisses = (scenario.mutants ?? []).filter((m) => m.of === solution).map((m) => `\`${m.id}\``);
    rows.push(`| ${scenario.id} | \`${from}\` | \`${solution}\` | ${cell(sets)} | ${nearMisses.join(', ')} |`);
  }
  return rows.join('\n');
}

/** docs/EXERCISES.md with its table written anew; throws when the markers are missing. */
export function withExercises(document: string, catalog: Catalog): string {
  return withSection(document, EXERCISES, exerciseTable(catalog));
}
