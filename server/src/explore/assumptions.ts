// What a variant's verdict rests on, for the explorer: a correct variant's assumptions (its
// scenario's and its own) that a failing schedule may have broken, and why a scenario or a
// variant cannot be explored at all. A broken variant or a near-miss has no assumption to
// hide behind: any failing schedule is its failure.
import type { AnyScenario } from '../scenarios/registry.js';
import type { Assumption, MutantDefinition, PlayedFacts, VariantDefinition } from '../scenarios/types.js';

type AnyVariant = VariantDefinition<unknown> | MutantDefinition<unknown>;

/** The assumptions a schedule of this variant may break without failing it. */
export function assumptionsOf(scenario: AnyScenario, variant: AnyVariant): Assumption[] {
  if (!variant.correct || 'of' in variant) return [];
  return [...(scenario.assumptions ?? []), ...(variant.assumptions ?? [])];
}

/** The words of the first assumption the played schedule broke, if it broke one. */
export function brokenAssumption(assumptions: Assumption[], played: PlayedFacts): string | undefined {
  return assumptions.find((a) => a.brokenBy(played))?.words;
}

/** Why the variant's schedules cannot be searched (its scenario's reason first); undefined: they can. */
export function notExplorable(scenario: AnyScenario, variant: AnyVariant): string | undefined {
  return scenario.notExplorable ?? variant.notExplorable;
}
