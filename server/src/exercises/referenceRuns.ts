// Runs of the catalog's own code a grade compares with (the solution at a set, for its
// stalls; a near-miss mutant at its set, for its failures): each played once per server
// life and kept, so that the next check of the same exercise pays only for the edited
// code's runs. A run that failed before its verdict is not kept: the next check tries again.
import type { Params } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { AnyScenario } from '../scenarios/registry.js';
import { paramsKey } from './exerciseSets.js';
import { playSet, type SetRun } from './setRun.js';

const kept = new WeakMap<Playground, Map<string, Promise<SetRun>>>();

/** The run of the scenario's `variantId` (a variant or a mutant) at `params`, played once per playground. */
export function referenceRun(
  playground: Playground,
  scenario: AnyScenario,
  variantId: string,
  params: Params,
  checkpoints: readonly string[],
): Promise<SetRun> {
  let runs = kept.get(playground);
  if (!runs) kept.set(playground, (runs = new Map<string, Promise<SetRun>>()));
  const key = `${scenario.id}/${variantId}/${paramsKey(params)}/${checkpoints.join(',')}`;
  const had = runs.get(key);
  if (had) return had;
  const playing = playSet(playground, { scenario: scenario.id, variant: variantId, params, mutants: true }, scenario.metrics, checkpoints);
  runs.set(key, playing);
  void playing.then(
    (run) => (run.runFailed ? runs.delete(key) : undefined),
    () => runs.delete(key),
  );
  return playing;
}
