// `racelab exercise <scenario> --file my-fix.ts [--json] [--set N]` (npm run exercise -- …):
// grades a file as the scenario's exercise, the same way the page does, printing each set's
// result as it is graded. Exit 0 when every set passes, 1 when one fails (or the stores could
// not be reached), 2 when the file does not compile or load, or on bad input.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ExerciseCompileError, ExerciseProgress, ExerciseSetResult } from '@racelab/shared';
import { loadCatalog } from '../scenarios/registry.js';
import { servicesOrSay } from '../services/index.js';
import { allExercises, exerciseOf } from './exerciseOf.js';
import { exerciseSets } from './exerciseSets.js';
import { compileRules } from './editedCode.js';
import { compileExercise } from './compiler.js';
import type { Exercise } from './exerciseOf.js';
import { closeExerciseConfinement } from './confinement.js';

export const EXERCISE_USAGE =
  'usage: racelab exercise <scenario> --file <my-fix.ts> [--json] [--set N]   (npm run exercise -- <scenario> --file <my-fix.ts>)';

/** The exercise command; `cwd` resolves a relative --file. Returns the exit code. */
export async function exerciseCommand(argv: string[], cwd = process.cwd()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { file: { type: 'string' }, json: { type: 'boolean', default: false }, set: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const catalog = await loadCatalog();
  const known = allExercises(catalog).map((e) => e.scenario.id);
  if (positionals.length !== 1) return usage(`name one scenario; those with an exercise: ${known.join(', ')}`);
  const exercise = exerciseOf(catalog, positionals[0]!);
  if (!exercise) return usage(`'${positionals[0]}' has no exercise; those with one: ${known.join(', ')}`);
  if (!values.file) return usage('--file is required: the edited variant, TypeScript');
  const file = resolve(process.env.INIT_CWD ?? cwd, values.file);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    return usage(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const count = exerciseSets(exercise.scenario, exercise.manifest, exercise.definition, exercise.solution).length;
  const onlySet = values.set === undefined ? undefined : Number(values.set) - 1;
  if (onlySet !== undefined && !(Number.isInteger(onlySet) && onlySet >= 0 && onlySet < count)) {
    return usage(`--set must be a set's number, 1 to ${count}, got ${values.set}`);
  }

  // A file that does not compile is told before any store is reached.
  const compiled = await checkCompiles(exercise, source);
  if (compiled.length > 0) {
    if (values.json) console.log(JSON.stringify({ scenario: exercise.scenario.id, file, compiled: false, errors: compiled }));
    else compiled.forEach((e) => console.error(compileErrorLine(values.file!, e)));
    return 2;
  }
  const services = await servicesOrSay();
  if (!services) return 1;
  const { Playground } = await import('../runs/playground.js');
  const { gradeExercise } = await import('./grade.js');
  const playground = await Playground.open({ ...services, poolSize: 1 });
  try {
    const print = values.json ? () => undefined : (line: ExerciseProgress) => printLine(line, values.file!, exercise.scenario.id);
    const ending = await gradeExercise(playground, exercise, source, print, { ...(onlySet !== undefined ? { onlySets: [onlySet] } : {}) });
    if (ending.kind === 'not-compiled') {
      if (values.json) console.log(JSON.stringify({ scenario: exercise.scenario.id, file, compiled: false, errors: ending.errors }));
      return 2;
    }
    if (values.json)
      console.log(JSON.stringify({ scenario: exercise.scenario.id, file, compiled: true, passed: ending.passed, results: ending.results }));
    return ending.passed ? 0 : 1;
  } catch (error) {
    console.error(`racelab exercise: ${playground.redact((error as Error).message)}`);
    return 1;
  } finally {
    await playground.close();
    await closeExerciseConfinement();
    await services.stop();
  }
}

/** The compiler's errors for `source` as the exercise's fix; none when it compiles. */
async function checkCompiles(exercise: Exercise, source: string): Promise<ExerciseCompileError[]> {
  const compiled = await compileExercise(source, await compileRules(exercise));
  return compiled.ok ? [] : compiled.errors;
}

function usage(reason: string): number {
  console.error(`${reason}\n${EXERCISE_USAGE}`);
  return 2;
}

/** One line of progress as a person reads it. */
function printLine(line: ExerciseProgress, file: string, scenario: string): void {
  switch (line.kind) {
    case 'compiled':
      return console.log(`${scenario}: ${file} compiled; grading it at ${line.sets} set${line.sets === 1 ? '' : 's'}`);
    case 'not-compiled':
      return line.errors.forEach((e) => console.error(compileErrorLine(file, e)));
    case 'set':
      return console.log(setLines(line.result));
    case 'done':
      return console.log(
        line.passed
          ? 'every set passes: your fix holds'
          : `${line.results.filter((r) => !r.passed).length} of ${line.results.length} sets fail`,
      );
    case 'refused':
      return console.error(`racelab exercise: ${line.error}`);
  }
}

/** "my-fix.ts:12: ';' expected", as compilers print it. */
export function compileErrorLine(file: string, error: ExerciseCompileError): string {
  return `${file}${error.line ? `:${error.line}` : ''}: ${error.message}`;
}

function setLines(result: ExerciseSetResult): string {
  const head = `  ${result.passed ? '✓' : '✗'} ${result.index + 1}. ${result.passed ? result.set.label : result.summary}`;
  const failures = result.failures.map((f) => `      ${f}`);
  const nearMiss = result.nearMiss ? [`      a known near-miss: ${result.nearMiss.title} — ${result.nearMiss.mistake}`] : [];
  return [head, ...failures, ...nearMiss].join('\n');
}
