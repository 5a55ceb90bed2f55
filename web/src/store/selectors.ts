// Selectors over the store. Each returns a value already held in the state, or a
// primitive, so components re-render only when it really changes (zustand v5: a
// selector that allocates a new object every call would render forever).
import type { RunEvent, ScenarioManifest, VariantManifest } from '@racelab/shared';
import { logEndMs, shownLog } from '../model/cursor.js';
import { runSummary } from '../model/runSummary.js';
import type { ChapterExercise } from '../app/chapters.js';
import type { ExercisesOnServer } from '../model/exercise/onServer.js';
import { findScenario } from './selectionSlice.js';
import type { RunRecord, State } from './types.js';

const NO_EVENTS: RunEvent[] = [];

export const selectScenario = (s: State): ScenarioManifest | undefined => findScenario(s, s.scenarioId);

export const selectVariant = (s: State): VariantManifest | undefined => selectScenario(s)?.variants.find((v) => v.id === s.variantId);

export const selectCurrentRunId = (s: State): string | null => s.shown[0] ?? null;

/** The run on top of the screen (the only one outside a compare). */
export const selectCurrentRun = (s: State): RunRecord | undefined => (s.shown[0] ? s.runs[s.shown[0]] : undefined);

/** A run's record without its log: what a component that draws from the log also needs. */
export type RunFacts = Omit<RunRecord, 'events' | 'clientOriginMs'>;
const factsOf = new Map<string, RunFacts>();

/**
 * A run's record without its log, the same object until one of these facts changes (a batch of
 * events makes a new record, not new facts): a component rendered apart from the batches
 * (../store/drawnLog.ts) selects this, so that a batch during its render does not make React
 * render it again at once, in one piece.
 */
export function selectRunFacts(s: State, runId: string | null): RunFacts | undefined {
  const run = runId ? s.runs[runId] : undefined;
  if (!run) return undefined;
  const known = factsOf.get(run.runId);
  const { events: _events, clientOriginMs: _origin, ...facts } = run;
  if (known && (Object.keys(facts) as (keyof RunFacts)[]).every((k) => Object.is(known[k], facts[k]))) return known;
  factsOf.set(run.runId, facts);
  return facts;
}

/** The current run's whole log (the same array until an event is appended). */
export const selectCurrentLog = (s: State): readonly RunEvent[] => selectCurrentRun(s)?.events ?? NO_EVENTS;

/** What a run on screen shows: its log up to the cursor (a stable array between two events). */
export const selectShownLog = (s: State, runId: string | null): readonly RunEvent[] => {
  const run = runId ? s.runs[runId] : undefined;
  return run ? shownLog(run.events, s.cursor) : NO_EVENTS;
};

/** What the current run shows at the cursor. */
export const selectCurrentEvents = (s: State): readonly RunEvent[] => selectShownLog(s, s.shown[0] ?? null);

/** The moment the cursor holds (a step, a click on the axis); null while live or replaying. */
export const selectHeldMs = (s: State): number | null => (s.cursor.mode === 'held' ? s.cursor.atMs : null);

/** The replay clock is moving the cursor and some run on screen has events still ahead of it. */
export const selectReplaying = (s: State): boolean => {
  const c = s.cursor;
  return c.mode === 'replay' && s.shown.some((id) => !!s.runs[id] && c.atMs < logEndMs(s.runs[id].events));
};

/** The scenario a run belongs to: its recording's manifest, else the catalog's. */
export function scenarioOfRun(s: State, run: RunFacts | undefined): ScenarioManifest | undefined {
  if (!run) return undefined;
  return run.manifest ?? s.catalog?.find((x) => x.id === run.scenario);
}

/** The manifest of the scenario the current run belongs to (labels for its verdict). */
export const selectRunScenario = (s: State): ScenarioManifest | undefined => scenarioOfRun(s, selectCurrentRun(s));

export const isRunning = (run: RunRecord | undefined): boolean => {
  if (!run || run.lost) return false;
  const phase = runSummary(run.events).phase;
  return phase === 'running' || phase === 'empty';
};

/**
 * A live run whose worker processes take faults from the page: from its run-started (its lanes
 * are laid out from the roster while its workers start, and the server refuses a fault then)
 * to its end.
 */
export const takesFaults = (run: RunRecord | undefined): boolean => {
  if (!run || run.lost || run.source !== 'live') return false;
  const summary = runSummary(run.events);
  return summary.started !== null && summary.endMs === null;
};

/** A run was asked for, a run on screen is in progress and still followed, or a replay plays. */
export const selectRunInProgress = (s: State): boolean =>
  s.pending.length > 0 || s.shown.some((id) => isRunning(s.runs[id])) || selectReplaying(s);

/** A live run on screen is in progress: its workers can take faults. */
export const selectLiveInProgress = (s: State): boolean => s.shown.some((id) => s.runs[id]?.source === 'live' && isRunning(s.runs[id]));

/** Two runs side by side. */
export const selectComparing = (s: State): boolean => s.shown.length > 1 || s.pending.length > 1;

/** The run ids on screen joined in one string: a stable primitive to select on. */
export const selectShownKey = (s: State): string => s.shown.join(' ');

const chapterExercisesOf = new WeakMap<ExercisesOnServer, ChapterExercise[]>();
const NO_EXERCISES: ChapterExercise[] = [];

/** The scenarios with an exercise, and the variant each starts from (the same array until the server's answer changes). */
export function selectChapterExercises(s: State): ChapterExercise[] {
  if (!s.workshop || s.exercises.state !== 'answered') return NO_EXERCISES;
  let list = chapterExercisesOf.get(s.exercises);
  if (!list) {
    list = s.exercises.list.map((e) => ({ scenario: e.scenario, from: e.start.variant }));
    chapterExercisesOf.set(s.exercises, list);
  }
  return list;
}
