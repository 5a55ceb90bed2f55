// Every scenario's exercise, graded on the real stores as a learner's code would be: the
// solution's own file passes at the defaults and at the set that runs the most workers, the
// starting variant's file fails (graded until its first failing set), and a near-miss of the
// solution, sent as code, fails at its set and is named as that near-miss (graded at that set
// only). The solution's code, as the built-in variant, passes every declared set in its
// scenario's params test; what grading it as edited code adds is the confinement (a uid and a
// heap cap for each worker, the code compiled and loaded from a folder of its own), and the set
// with the most workers is where that is tried hardest. Part of the full suite: minutes a
// scenario, three gradings at a time. duplicate-job's is graded at every set, and more, by
// grade.test.ts.
import { readFileSync } from 'node:fs';
import { resolveParams } from '@racelab/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../runs/playground.js';
import { loadCatalog, sourcePath } from '../scenarios/registry.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { allExercises, type Exercise } from './exerciseOf.js';
import { exerciseSets, paramsKey, type GradedSet } from './exerciseSets.js';
import { gradeExercise, type GradeOptions } from './grade.js';

const exercises = allExercises(await loadCatalog()).filter((e) => e.scenario.id !== 'duplicate-job');

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(0);
});
afterAll(async () => {
  await playground.close();
});

const codeOf = (source: string): string => readFileSync(sourcePath(source), 'utf8');

/** The index of the first set that runs the most workers (the defaults' 0 when none runs more). */
function mostWorkers(exercise: Exercise, sets: GradedSet[]): number {
  const counts = sets.map((s) => exercise.scenario.workers(s.params).length);
  return counts.indexOf(Math.max(...counts));
}

describe.concurrent.each(exercises.map((e) => [e.scenario.id, e] as const))('%s as an exercise', (_id, exercise) => {
  const grade = (code: string, options: GradeOptions = {}) => gradeExercise(playground, exercise, code, () => undefined, options);
  const sets = exerciseSets(exercise.scenario, exercise.manifest, exercise.definition, exercise.solution);

  it('passes the solution’s own code at the defaults and at the set with the most workers', async () => {
    const ending = await grade(codeOf(exercise.solution.source), { onlySets: [0, mostWorkers(exercise, sets)] });
    const failed = ending.kind === 'done' ? ending.results.filter((r) => !r.passed).map((r) => [r.summary, ...r.failures].join('\n')) : [];
    expect(failed).toEqual([]);
    expect(ending).toMatchObject({ kind: 'done', passed: true });
  }, 900_000);

  it('fails the starting variant’s code', async () => {
    const ending = await grade(codeOf(exercise.from.source), { stopAtFirstFailure: true });
    expect(ending).toMatchObject({ kind: 'done', passed: false });
  }, 900_000);

  const mutant = exercise.scenario.mutants?.find((m) => m.of === exercise.solution.id);
  it(`names a near-miss of ${exercise.solution.id} sent as code (${mutant?.id ?? 'none'}) at the set where it fails`, async () => {
    expect(mutant, `${exercise.scenario.id} has no near-miss of its solution`).toBeDefined();
    const at = resolveParams(exercise.manifest, exercise.solution.id, { ...mutant!.defaults, ...mutant!.failsAt });
    const index = sets.findIndex((s) => at.ok && paramsKey(s.params) === paramsKey(at.params));
    expect(index, `${mutant!.id} fails at a set the exercise does not grade`).toBeGreaterThanOrEqual(0);
    const ending = await grade(codeOf(mutant!.source), { onlySets: [index] });
    const results = ending.kind === 'done' ? ending.results : [];
    expect(results.map((r) => ({ passed: r.passed, nearMiss: r.nearMiss?.id, failures: r.failures }))).toMatchObject([
      { passed: false, nearMiss: mutant!.id },
    ]);
  }, 900_000);
});
