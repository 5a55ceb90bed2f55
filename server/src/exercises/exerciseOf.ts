// A scenario's exercise with what grading it needs at hand: its manifest, the variant the
// learner starts from and the solution, looked up once from the catalog.
import type { ScenarioManifest } from '@racelab/shared';
import { findVariant, type AnyScenario, type Catalog } from '../scenarios/registry.js';
import type { ExerciseDefinition, VariantDefinition } from '../scenarios/types.js';

export interface Exercise {
  scenario: AnyScenario;
  manifest: ScenarioManifest;
  definition: ExerciseDefinition;
  from: VariantDefinition<unknown>;
  solution: VariantDefinition<unknown>;
}

/** The exercise of a scenario, or undefined when it has none (or names variants it does not have). */
export function exerciseOf(catalog: Catalog, scenarioId: string): Exercise | undefined {
  const scenario = catalog.scenarios.get(scenarioId);
  const definition = scenario?.exercise;
  if (!scenario || !definition) return undefined;
  const from = findVariant(scenario, definition.from);
  const solution = findVariant(scenario, definition.solution);
  const manifest = catalog.manifests.find((m) => m.id === scenarioId);
  if (!from || !solution || !manifest) return undefined;
  return { scenario, manifest, definition, from, solution };
}

/** Every scenario's exercise, in teaching order. */
export function allExercises(catalog: Catalog): Exercise[] {
  return [...catalog.scenarios.keys()].flatMap((id) => exerciseOf(catalog, id) ?? []);
}
