// A half-fix named as the near-miss it is: when the edited code fails a set, the solution's
// mutants that fail at that set are played there (once per server life), and the one whose
// failed expectations match the edited code's is named, with its mistake. Two that match
// alike are told apart by the code: the tokens a mutant's file has and the solution's has not
// (`del(` for a plain DEL release), as many as possible found in the edited code.
import type { NearMiss, Params, ScenarioManifest } from '@racelab/shared';
import { resolveParams } from '@racelab/shared';
import { readFileSync } from 'node:fs';
import type { Playground } from '../runs/playground.js';
import { sourcePath, type AnyScenario } from '../scenarios/registry.js';
import type { MutantDefinition, VariantDefinition } from '../scenarios/types.js';
import { paramsKey } from './exerciseSets.js';
import { referenceRun } from './referenceRuns.js';
import type { SetRun } from './setRun.js';

/** The solution's mutants whose failsAt comes, at the solution's parameters, to this set. */
export function mutantsFailingAt(
  scenario: AnyScenario,
  manifest: ScenarioManifest,
  solution: VariantDefinition<unknown>,
  params: Params,
): MutantDefinition<unknown>[] {
  const key = paramsKey(params);
  return (scenario.mutants ?? []).filter((m) => {
    if (m.of !== solution.id) return false;
    const at = resolveParams(manifest, solution.id, { ...m.defaults, ...m.failsAt });
    return at.ok && paramsKey(at.params) === key;
  });
}

/** The near-miss the edited code behaves as at this set, or none. */
export async function nameNearMiss(
  playground: Playground,
  scenario: AnyScenario,
  candidates: MutantDefinition<unknown>[],
  params: Params,
  edited: SetRun,
  code: string,
  solution: VariantDefinition<unknown>,
): Promise<NearMiss | undefined> {
  if (edited.failedIds.length === 0 || candidates.length === 0) return undefined;
  const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));
  const matching: { mutant: MutantDefinition<unknown>; score: number }[] = [];
  // The candidates' runs at once: each is played once per server life, and they are few.
  const runs = await Promise.all(candidates.map((mutant) => referenceRun(playground, scenario, mutant.id, params, [])));
  for (const [i, mutant] of candidates.entries()) {
    const run = runs[i]!;
    if (!same(run.failedIds, edited.failedIds)) continue;
    // The same figures weigh more than any likeness of code; the code tells the rest apart.
    const figures = same(run.failures, edited.failures) ? 1 : 0;
    // Two whose differences the edited code has alike (cron-clock-skew's mutants both overlay
    // the solution with mutantOf) are told apart by how much of each one's whole code it shares.
    matching.push({ mutant, score: figures + likeness(code, mutant, solution) + 0.005 * overlap(code, mutant) });
  }
  const best = matching.sort((a, b) => b.score - a.score)[0];
  if (!best) return undefined;
  return { id: best.mutant.id, title: best.mutant.title, mistake: best.mutant.mistake };
}

/** How much of what sets the mutant's code apart from the solution's is in the edited code, from 0 to 1 (below 1). */
export function likeness(code: string, mutant: VariantDefinition<unknown>, solution: VariantDefinition<unknown>): number {
  const theirs = tokens(readSource(mutant));
  const solutions = tokens(readSource(solution));
  const distinct = [...theirs].filter((t) => !solutions.has(t));
  if (distinct.length === 0) return 0;
  const mine = tokens(code);
  return (0.99 * distinct.filter((t) => mine.has(t)).length) / distinct.length;
}

/** The share of the two codes' tokens they have in common (Jaccard), from 0 to 1. */
export function overlap(code: string, mutant: VariantDefinition<unknown>): number {
  const mine = tokens(code);
  const theirs = tokens(readSource(mutant));
  const both = [...mine].filter((t) => theirs.has(t)).length;
  const either = new Set([...mine, ...theirs]).size;
  return either === 0 ? 0 : both / either;
}

function readSource(variant: VariantDefinition<unknown>): string {
  try {
    return readFileSync(sourcePath(variant.source), 'utf8');
  } catch {
    return '';
  }
}

/** The code's identifiers (a call keeps its parenthesis: `del(`), without comments, strings and imports. */
export function tokens(code: string): Set<string> {
  const bare = code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, ' ')
    .replace(/^\s*import .*$/gm, ' ')
    .replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, ' ');
  return new Set(bare.match(/[A-Za-z_$][\w$]*\s*\(?/g)?.map((t) => t.replace(/\s+/g, '')) ?? []);
}
