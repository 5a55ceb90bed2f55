// What the page knows of exercises on its server: still asking, the server's answer (whether
// it runs edited code, why, and each scenario's exercise), or no server at all.
import { EXERCISE_COMMAND, type ExerciseInfo, type ScenarioManifest } from '@racelab/shared';

export type ExercisesOnServer =
  { state: 'asking' } | { state: 'answered'; allowed: boolean; why: string; list: ExerciseInfo[] } | { state: 'no-server'; why: string };

/** Edited code can be run and checked here. */
export const exercisesRun = (e: ExercisesOnServer): boolean => e.state === 'answered' && e.allowed;

/** Why edited code does not run here, in the server's words or the page's; null where it runs (or while asking). */
export function whyNotHere(e: ExercisesOnServer): string | null {
  if (e.state === 'asking') return null;
  if (e.state === 'no-server') return e.why;
  return e.allowed ? null : e.why;
}

/** A scenario's exercise, when the server has one. */
export const exerciseOf = (e: ExercisesOnServer, scenario: string | null): ExerciseInfo | undefined =>
  e.state === 'answered' ? e.list.find((x) => x.scenario === scenario) : undefined;

/**
 * What a page with no server to ask can still show of a scenario as an exercise: its first
 * broken variant's code, to read (no hints, no sets: those are the server's).
 */
export function readingOnly(scenario: ScenarioManifest): ExerciseInfo | null {
  const broken = scenario.variants.find((v) => !v.correct && v.code);
  return broken
    ? {
        scenario: scenario.id,
        title: scenario.title,
        start: { variant: broken.id, title: broken.title, code: broken.code },
        hints: [],
        sets: [],
      }
    : null;
}

/** The exercise the page shows for a scenario: the server's, else (with no server here) one to read. */
export function exerciseShown(e: ExercisesOnServer, scenario: ScenarioManifest | undefined): ExerciseInfo | null {
  if (!scenario) return null;
  if (e.state === 'answered') return exerciseOf(e, scenario.id) ?? null;
  return e.state === 'no-server' ? readingOnly(scenario) : null;
}

/** The terminal command that grades a file for this scenario. */
export const exerciseCommand = (scenario: string): string => EXERCISE_COMMAND.replace('<scenario>', scenario);
