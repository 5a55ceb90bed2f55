// Selectors over the store. Each returns a value already held in the state, or a
// primitive, so components re-render only when it really changes.
import type { RunEvent, ScenarioManifest, VariantManifest } from '@racelab/shared';
import { runSummary } from '../model/runSummary.js';
import type { RunRecord, State } from './types.js';

const NO_EVENTS: RunEvent[] = [];

export const selectScenario = (s: State): ScenarioManifest | undefined =>
  s.catalog?.find((x) => x.id === s.scenarioId);

export const selectVariant = (s: State): VariantManifest | undefined =>
  selectScenario(s)?.variants.find((v) => v.id === s.variantId);

export const selectCurrentRun = (s: State): RunRecord | undefined =>
  s.currentRunId ? s.runs[s.currentRunId] : undefined;

/** The current run's raw log (the same array until an event is appended). */
export const selectCurrentEvents = (s: State): readonly RunEvent[] => selectCurrentRun(s)?.events ?? NO_EVENTS;

/** The manifest of the scenario the current run belongs to (labels for its verdict). */
export const selectRunScenario = (s: State): ScenarioManifest | undefined => {
  const run = selectCurrentRun(s);
  return run ? s.catalog?.find((x) => x.id === run.scenario) : undefined;
};

/** A run was asked for, or is in progress and still followed. */
export const selectRunInProgress = (s: State): boolean => {
  if (s.pending) return true;
  const run = selectCurrentRun(s);
  if (!run || run.lost) return false;
  const phase = runSummary(run.events).phase;
  return phase === 'running' || phase === 'empty';
};
