// An exercise's edited variant, loaded inside a worker started for its run alone: the module
// the server compiled into the run's scratch folder, whose default export is a variant like
// any other (defineVariant). It plays under the exercise's id, whatever id it gives itself.
import { EXERCISE_VARIANT_ID } from '@racelab/shared';
import type { VariantDefinition } from '../scenarios/types.js';

/** Said when the edited module does not load: the grader tells a load failure from a failed run by these words. */
export const DID_NOT_LOAD = 'your code did not load';

/** The edited variant of the module at `moduleUrl`; throws with DID_NOT_LOAD and the reason when it cannot be had. */
export async function loadEditedVariant(moduleUrl: string): Promise<VariantDefinition<unknown>> {
  if (!moduleUrl.startsWith('file://')) throw new Error('bad plan');
  let loaded: { default?: unknown };
  try {
    loaded = (await import(moduleUrl)) as { default?: unknown };
  } catch (error) {
    throw new Error(`${DID_NOT_LOAD}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const variant = loaded.default as Partial<VariantDefinition<unknown>> | undefined;
  if (typeof variant !== 'object' || variant === null || typeof variant.run !== 'function') {
    throw new Error(`${DID_NOT_LOAD}: its default export is not a variant (export default defineVariant({ …, run }))`);
  }
  return { ...(variant as VariantDefinition<unknown>), id: EXERCISE_VARIANT_ID };
}
