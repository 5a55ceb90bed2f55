// Grades a learner's edited code the way the catalog's variants are held to their verdicts:
// compiled, then run as the variant `your-fix` on real workers at each set the exercise is
// graded at (exerciseSets.ts), each set judged by the stores. A set fails in the verdict's
// own words, or because the code no longer reaches the stall the scenario is about
// (stallCheck.ts); a failure that matches a known near-miss names it (nearMiss.ts).
import { EXERCISE_VARIANT_ID, type ExerciseProgress, type ExerciseSetResult, type Params } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { DID_NOT_LOAD } from '../worker/editedCode.js';
import { prepareEditedCode, type EditedCode } from './editedCode.js';
import type { Exercise } from './exerciseOf.js';
import { exerciseSets, type GradedSet } from './exerciseSets.js';
import { mutantsFailingAt, nameNearMiss } from './nearMiss.js';
import { referenceRun } from './referenceRuns.js';
import { playSet } from './setRun.js';
import { bothReach, missingStalls, type StallFacts } from './stallCheck.js';

export interface GradeOptions {
  /** Grades only these sets (their indexes among the exercise's sets). */
  onlySets?: readonly number[];
  /** Stops at the first set that fails (the catalogue's test: a broken code fails once, that is enough). */
  stopAtFirstFailure?: boolean;
}

type Ending = Extract<ExerciseProgress, { kind: 'done' | 'not-compiled' }>;

/** Grades `source` as `exercise`'s fix, telling each step to `progress`; resolves with the last line (done or not-compiled). */
export async function gradeExercise(
  playground: Playground,
  exercise: Exercise,
  source: string,
  progress: (line: ExerciseProgress) => void,
  options: GradeOptions = {},
): Promise<Ending> {
  const end = <T extends Ending>(line: T): T => (progress(line), line);
  const prepared = await prepareEditedCode(exercise, source, playground.redact);
  if (!prepared.ok) return end({ kind: 'not-compiled', errors: prepared.errors });
  const code = prepared.code;
  try {
    const all = exerciseSets(exercise.scenario, exercise.manifest, exercise.definition, exercise.solution);
    const sets = all
      .map((graded, index) => ({ graded, index }))
      .filter(({ index }) => options.onlySets === undefined || options.onlySets.includes(index));
    progress({ kind: 'compiled', sets: sets.length });
    const results: ExerciseSetResult[] = [];
    for (const { graded, index } of sets) {
      const result = await gradeSet(playground, exercise, code, source, graded, index);
      if ('loadError' in result) return end({ kind: 'not-compiled', errors: [{ message: result.loadError }] });
      results.push(result);
      progress({ kind: 'set', result });
      if (options.stopAtFirstFailure && !result.passed) break;
    }
    return end({ kind: 'done', passed: results.length > 0 && results.every((r) => r.passed), results });
  } finally {
    await code.remove();
  }
}

/**
 * The stalls both the starting variant and the solution reach at a set: what the scenario
 * itself imposes, whichever way the lock is fixed. A reference run that failed (a store gone,
 * a variant refused there) tells nothing: the other decides, or none.
 */
async function stallsToKeep(playground: Playground, exercise: Exercise, params: Params): Promise<StallFacts> {
  const { scenario, from, solution } = exercise;
  const checkpoints = from.checkpoints ?? [];
  const facts = async (variantId: string): Promise<StallFacts | undefined> => {
    const run = await referenceRun(playground, scenario, variantId, params, checkpoints).catch(() => undefined);
    return run && !run.runFailed ? run.facts : undefined;
  };
  const [fromFacts, solutionFacts] = await Promise.all([facts(from.id), facts(solution.id)]);
  if (!fromFacts || !solutionFacts) return fromFacts ?? solutionFacts ?? new Map();
  return bothReach(fromFacts, solutionFacts);
}

/** One set: the edited code's run, the stalls it must keep there, and the near-miss it matches when it fails. */
async function gradeSet(
  playground: Playground,
  exercise: Exercise,
  code: EditedCode,
  source: string,
  { set, params }: GradedSet,
  index: number,
): Promise<ExerciseSetResult | { loadError: string }> {
  const { scenario, manifest, from, solution } = exercise;
  const checkpoints = from.checkpoints ?? [];
  const edited = await playSet(
    playground,
    { scenario: scenario.id, variant: EXERCISE_VARIANT_ID, params, ownCode: code.ownCode },
    scenario.metrics,
    checkpoints,
  );
  const loadFailure = edited.runFailed?.indexOf(DID_NOT_LOAD) ?? -1;
  if (loadFailure >= 0) return { loadError: edited.runFailed!.slice(loadFailure) };
  const missing = missingStalls(await stallsToKeep(playground, exercise, params), edited.facts);
  const passed = edited.passed && missing.length === 0;
  const failures = passed ? [] : [...edited.failures, ...missing];
  const nearMiss = edited.passed
    ? undefined
    : await nameNearMiss(playground, scenario, mutantsFailingAt(scenario, manifest, solution, params), params, edited, source, solution);
  return {
    index,
    set,
    passed,
    failures,
    summary: passed ? `passes at ${set.label}` : `fails at ${set.label}: ${set.reason}`,
    ...(nearMiss ? { nearMiss } : {}),
    runId: edited.runId,
  };
}
