// The server's exercises: what the page is shown (each scenario's exercise, whether this
// server runs edited code and why), the solution on request, a check of edited code (one at
// a time per client, a few at once on the server), and a page's run of edited code.
import { readFileSync } from 'node:fs';
import type { ExerciseInfo, ExerciseProgress, ExerciseSolution, ExercisesStatus } from '@racelab/shared';
import type { OwnCode } from '../runs/ownCode.js';
import type { Playground } from '../runs/playground.js';
import { sourcePath } from '../scenarios/registry.js';
import type { VariantDefinition } from '../scenarios/types.js';
import { prepareEditedCode } from './editedCode.js';
import { allExercises, exerciseOf, type Exercise } from './exerciseOf.js';
import { exerciseSets } from './exerciseSets.js';
import { gradeExercise } from './grade.js';
import type { ExercisePolicy } from './policy.js';

/** Checks the server grades at once: each takes a few workers for about a minute. */
export const MAX_CHECKS = 2;

/** A page's run of edited code, ready to start; `done` removes its compiled module once the run has settled. */
export type EditedRun = { ok: true; ownCode: OwnCode; done(): Promise<void> } | { ok: false; error: string };

export class ExerciseService {
  /** Clients (network addresses) with a check going. */
  private readonly checking = new Set<string>();
  private infos: ExerciseInfo[] | undefined;

  constructor(
    readonly playground: Playground,
    readonly policy: ExercisePolicy,
  ) {}

  /** Whether edited code runs here, why, and every exercise. */
  status(): ExercisesStatus {
    this.infos ??= allExercises(this.playground.catalog).map(infoOf);
    return { allowed: this.policy.allowed, why: this.policy.why, exercises: this.infos };
  }

  /** The reference solution of a scenario's exercise, or undefined when it has none. */
  solution(scenarioId: string): ExerciseSolution | undefined {
    const exercise = exerciseOf(this.playground.catalog, scenarioId);
    return exercise && { variant: exercise.solution.id, title: exercise.solution.title, code: ownCode(exercise.solution) };
  }

  /** True when the scenario has an exercise. */
  has(scenarioId: string): boolean {
    return exerciseOf(this.playground.catalog, scenarioId) !== undefined;
  }

  /** Grades `source` for the client at `client`, line by line; refused when not allowed or busy. */
  async check(scenarioId: string, client: string, source: string, progress: (line: ExerciseProgress) => void): Promise<void> {
    const refused = this.refusal(client);
    if (refused) return progress({ kind: 'refused', error: refused });
    const exercise = exerciseOf(this.playground.catalog, scenarioId);
    if (!exercise) return progress({ kind: 'refused', error: `${scenarioId} has no exercise` });
    this.checking.add(client);
    try {
      await gradeExercise(this.playground, exercise, source, progress);
    } catch (error) {
      // Not the code's fault (a store gone, a full disk): said as such; the server carries on.
      console.error(`racelab: an exercise check failed: ${this.playground.redact(String(error))}`);
      progress({
        kind: 'refused',
        error: `the check could not finish: ${this.playground.redact(error instanceof Error ? error.message : String(error))}`,
      });
    } finally {
      this.checking.delete(client);
    }
  }

  /** Why a check from this client cannot start now, or undefined. */
  refusal(client: string): string | undefined {
    if (!this.policy.allowed) return this.policy.why;
    if (this.checking.has(client)) return 'busy: your last check is still running; wait for its result';
    if (this.checking.size >= MAX_CHECKS)
      return `busy: the server is checking ${this.checking.size} fixes, the most it takes at once; try again in a minute`;
    return undefined;
  }

  /** A page's run of edited code (start-run with `exercise.code`): compiled and ready, or refused with the reason. */
  async editedRun(scenarioId: string, source: string): Promise<EditedRun> {
    if (!this.policy.allowed) return { ok: false, error: this.policy.why };
    const exercise = exerciseOf(this.playground.catalog, scenarioId);
    if (!exercise) return { ok: false, error: `${scenarioId} has no exercise: only an exercise's code can be edited` };
    const prepared = await prepareEditedCode(exercise, source, this.playground.redact);
    if (!prepared.ok) {
      const first = prepared.errors[0]!;
      return { ok: false, error: `your code does not compile: ${first.line ? `line ${first.line}: ` : ''}${first.message}` };
    }
    return { ok: true, ownCode: prepared.code.ownCode, done: prepared.code.remove };
  }
}

/** A scenario's exercise as the page shows it before any run: the editor starts from the from variant's own file. */
function infoOf(exercise: Exercise): ExerciseInfo {
  const { scenario, manifest, definition, from, solution } = exercise;
  return {
    scenario: scenario.id,
    title: scenario.title,
    start: { variant: from.id, title: from.title, code: ownCode(from) },
    hints: definition.hints,
    sets: exerciseSets(scenario, manifest, definition, solution).map((g) => g.set),
  };
}

/** A variant's own file, without the kit files the page's code panel appends: what the learner edits. */
function ownCode(variant: VariantDefinition<unknown>): string {
  return readFileSync(sourcePath(variant.source), 'utf8');
}
