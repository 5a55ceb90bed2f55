// Exercises on the server the page came from: whether it runs edited code (and why), each
// scenario's exercise, its reference solution on request, and a check of the learner's code,
// read line by line as the server grades it. A page served from static files has no server:
// it says so, and names the command that grades a file from a terminal instead.
import {
  EXERCISE_MAX_BYTES,
  exerciseCheckPath,
  ExercisesStatus,
  EXERCISES_PATH,
  ExerciseSolution,
  exerciseSolutionPath,
} from '@racelab/shared';
import { checkFailed, checkSent, foldProgress, type CheckState } from '../model/exercise/checkResult.js';
import type { ExerciseInfo } from '@racelab/shared';
import { readProgressStream } from '../model/exercise/ndjson.js';
import type { ExercisesOnServer } from '../model/exercise/onServer.js';
import { pageUrl } from './pageUrl.js';
import { isSite } from './siteMode.js';

export const STATIC_SITE_WHY = 'This copy of racelab is a static site: there is no server here to run edited code.';
export const NO_SERVER_WHY = 'The page could not reach a racelab server that runs exercises.';

const errorWords = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Asks the server for its exercises; a static site asks nothing. */
export async function fetchExercises(): Promise<ExercisesOnServer> {
  if (isSite()) return { state: 'no-server', why: STATIC_SITE_WHY };
  try {
    const response = await fetch(pageUrl(EXERCISES_PATH), { cache: 'no-store' });
    // A static file server answers with the page itself (or 404): not JSON of this shape.
    const status = ExercisesStatus.safeParse(response.ok ? await response.json() : null);
    if (!status.success) return { state: 'no-server', why: NO_SERVER_WHY };
    return { state: 'answered', allowed: status.data.allowed, why: status.data.why, list: status.data.exercises };
  } catch {
    return { state: 'no-server', why: NO_SERVER_WHY };
  }
}

export type FetchedSolution = { ok: true; solution: ExerciseSolution } | { ok: false; error: string };

/** The reference solution, only when the learner asked for it. */
export async function fetchSolution(scenario: string): Promise<FetchedSolution> {
  try {
    const response = await fetch(pageUrl(exerciseSolutionPath(scenario)), { cache: 'no-store' });
    const parsed = ExerciseSolution.safeParse(response.ok ? await response.json() : null);
    return parsed.success ? { ok: true, solution: parsed.data } : { ok: false, error: `the server answered HTTP ${response.status}` };
  } catch (e) {
    return { ok: false, error: `the solution could not be fetched: ${errorWords(e)}` };
  }
}

/**
 * Sends the code to be checked and hands every picture of the check to `onState` as the
 * answer streams in: the sets pending, each one graded, then done (or the compile errors, or
 * the refusal). Resolves with the last picture.
 */
export async function runCheck(
  exercise: ExerciseInfo,
  code: string,
  onState: (state: CheckState) => void,
  signal?: AbortSignal,
): Promise<CheckState> {
  let state = checkSent(exercise.sets);
  const show = (next: CheckState) => {
    state = next;
    onState(state);
  };
  show(state);
  if (new TextEncoder().encode(code).length > EXERCISE_MAX_BYTES) {
    show({ ...state, phase: 'refused', problem: `the code is larger than ${EXERCISE_MAX_BYTES / 1024} KB` });
    return state;
  }
  try {
    const response = await fetch(pageUrl(exerciseCheckPath(exercise.scenario)), {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: code,
      ...(signal ? { signal } : {}),
    });
    if (!response.body) throw new Error(`the server answered HTTP ${response.status} with no body`);
    let problem: string | null = null;
    await readProgressStream(response.body, (line) => {
      if (problem) return;
      if (line.ok) show(foldProgress(state, line.progress));
      else problem = line.error;
    });
    if (problem) show(checkFailed(state, problem));
    else if (state.phase === 'sending' || state.phase === 'checking')
      show(checkFailed(state, response.ok ? 'the answer ended before the check was done' : `the server answered HTTP ${response.status}`));
  } catch (e) {
    show(checkFailed(state, signal?.aborted ? 'the check was stopped' : `the check could not reach the server: ${errorWords(e)}`));
  }
  return state;
}
