// What a variant's verdict rests on, for the explorer: a correct variant's assumptions (its
// scenario's and its own) that a failing schedule may have broken, and why a scenario or a
// variant cannot be explored at all. A broken variant has no assumption to hide behind: any
// failing schedule is its failure. A near-miss has none either, but its failing schedule is its
// own only if the correct variant it changes does not fail it the same way (explorer.ts,
// failsItsVariantTheSameWay).
import type { AnyScenario } from '../scenarios/registry.js';
import type { Assumption, MutantDefinition, PlayedFacts, RunStores, VariantDefinition } from '../scenarios/types.js';

type AnyVariant = VariantDefinition<unknown> | MutantDefinition<unknown>;

/** The assumptions a schedule of this variant may break without failing it. */
export function assumptionsOf(scenario: AnyScenario, variant: AnyVariant): Assumption[] {
  if (!variant.correct || 'of' in variant) return [];
  return [...(scenario.assumptions ?? []), ...(variant.assumptions ?? [])];
}

/** The words of the first assumption the played schedule broke, by its decisions, its log or its stores, if it broke one. */
export function brokenAssumption(assumptions: Assumption[], played: PlayedFacts): string | undefined {
  return assumptions.find((a) => a.brokenBy?.(played) || played.brokenInStores?.includes(a))?.words;
}

/** The assumptions the stores show broken at a run's end, read before they are dropped. */
export async function brokenInStores(assumptions: Assumption[], stores: RunStores): Promise<Assumption[]> {
  const broken: Assumption[] = [];
  for (const assumption of assumptions) if (await assumption.brokenInStores?.(stores)) broken.push(assumption);
  return broken;
}

/** Why the variant's schedules cannot be searched (its scenario's reason first); undefined: they can. */
export function notExplorable(scenario: AnyScenario, variant: AnyVariant): string | undefined {
  return scenario.notExplorable ?? variant.notExplorable;
}
