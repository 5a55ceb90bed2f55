// `racelab explore --exercise <scenario> --file ./my-fix.ts [--param name=value …] [--bound K]
// [--budget N] [--minutes M] [--no-faults] [--first] [--out file.schedule.json] [--json]`:
// searches the schedules of a learner's edited code for a scenario's exercise, as for any
// variant: the code compiled as `racelab exercise` compiles it and run as the variant
// 'your-fix' on fresh, confined workers of its own (exercises/editedCode.ts), at the
// scenario's defaults unless --param says; the verdict is the scenario's, without what holds
// only in the choreography's order. The smallest failing schedule is written (a schedule file
// and a recording); `--schedule <file>` beside the same --exercise and --file plays it again
// (the scenario command runs racelab's own variants only).
// Exit 0 when no schedule failed, 1 when one did (or the stores could not be reached), 2 when
// the file does not compile, or on bad input.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXERCISE_VARIANT_ID, resolveParams, type ScheduleChoice } from '@racelab/shared';
import { compileErrorLine } from '../exercises/exerciseCli.js';
import { exerciseOf, allExercises, type Exercise } from '../exercises/exerciseOf.js';
import { readScheduleFile } from '../faultPlanFile.js';
import type { Playground } from '../runs/playground.js';
import { loadCatalog } from '../scenarios/registry.js';
import { EXPLORE_PARALLEL, jsonReport } from './exploreCli.js';
import type { Exploration, ExploreRequest } from './explorer.js';
import {
  onPlayground,
  cornersWanted,
  paramsGiven,
  plural,
  printSmallest,
  readArgs,
  searchBudget,
  reportWithoutLink,
  searchAndReport,
  SEARCH_OPTIONS,
} from './searchCommand.js';

export const EXPLORE_EXERCISE_USAGE = `usage: racelab explore --exercise <scenario> --file <my-fix.ts> [--param name=value ...] [--bound K] [--budget N]
                       [--minutes M] [--no-faults] [--first] [--out file.schedule.json] [--json]
       racelab explore --exercise <scenario> --file <my-fix.ts> --schedule <file.schedule.json>   (plays a schedule it found again)`;

const OPTIONS = { exercise: { type: 'string' }, file: { type: 'string' }, schedule: { type: 'string' }, ...SEARCH_OPTIONS } as const;

interface Parsed {
  exercise: Exercise;
  /** The edited file's absolute path, and its text. */
  file: string;
  source: string;
  request: ExploreRequest;
  /** A schedule to play again (--schedule), in place of a search. */
  replay?: ScheduleChoice[];
  out: string;
  json: boolean;
}

/** The command; `cwd` resolves --file, --schedule and --out. Returns the exit code. */
export async function exploreExerciseCommand(argv: string[], cwd: string): Promise<number> {
  const parsed = await readRequest(argv, cwd);
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n${EXPLORE_EXERCISE_USAGE}`);
    return 2;
  }
  const { prepareEditedCode } = await import('../exercises/editedCode.js');
  const { closeExerciseConfinement } = await import('../exercises/confinement.js');
  // Edited code never runs on the warm pool's workers: each run starts fresh ones of its own.
  return onPlayground(
    0,
    async (playground) => {
      const prepared = await prepareEditedCode(parsed.exercise, parsed.source, playground.redact);
      if (!prepared.ok) {
        prepared.errors.forEach((e) => console.error(compileErrorLine(parsed.file, e)));
        return 2;
      }
      try {
        const request = { ...parsed.request, ownCode: prepared.code.ownCode };
        return parsed.replay ? await playAgain(playground, parsed, request, parsed.replay) : await search(playground, parsed, request);
      } finally {
        await prepared.code.remove();
      }
    },
    closeExerciseConfinement,
  );
}

/** The search, its smallest failing schedule written, its report printed; exit 1 when a schedule failed. */
async function search(playground: Playground, parsed: Parsed, request: ExploreRequest): Promise<number> {
  const { manifest } = parsed.exercise;
  return searchAndReport(
    playground,
    { request, manifest, out: parsed.out, json: parsed.json },
    { json: (found) => exerciseJson(parsed, found), print: (found) => printReport(parsed, found) },
  );
}

/** One schedule played again on the edited code; exit 1 when it fails again. */
async function playAgain(playground: Playground, parsed: Parsed, request: ExploreRequest, choices: ScheduleChoice[]): Promise<number> {
  const { play } = await import('./explorer.js');
  const played = await play(playground, request, choices, parsed.exercise.manifest.metrics);
  if (parsed.json)
    console.log(JSON.stringify({ ...header(parsed), outcome: played.outcome, verdict: played.lines, figures: played.metrics }));
  else {
    console.log(`${headline(parsed)}: the schedule played again, ${played.choices.length} decisions: ${played.outcome.toUpperCase()}`);
    for (const line of played.lines) console.log(`  → ${line}`);
  }
  return played.outcome === 'pass' ? 0 : 1;
}

/** The exploration the command line asks for, or why it asks for none. */
async function readRequest(argv: string[], cwd: string): Promise<Parsed | string> {
  const read = readArgs(argv, OPTIONS);
  if (typeof read === 'string') return read;
  if (read.positionals.length > 0) return `--exercise names its scenario itself: nothing goes beside it (got '${read.positionals[0]}')`;
  const { values } = read;
  const catalog = await loadCatalog();
  const known = allExercises(catalog).map((e) => e.scenario.id);
  const exercise = values.exercise === undefined ? undefined : exerciseOf(catalog, values.exercise);
  if (!exercise) return `--exercise names a scenario with an exercise: ${known.join(', ')}`;
  if (!values.file) return '--file is required: the edited variant, TypeScript';
  const file = resolve(cwd, values.file);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    return `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  const budget = searchBudget(values);
  if (typeof budget === 'string') return budget;
  const given = paramsGiven(values.param);
  if (typeof given === 'string') return given;
  const scenario = exercise.scenario.id;
  const schedule =
    values.schedule === undefined ? undefined : await readScheduleFile(resolve(cwd, values.schedule), scenario, EXERCISE_VARIANT_ID);
  if (schedule && !schedule.ok) return schedule.error;
  const replay = schedule?.value.choices;
  // The edited code has the parameters of the variant it was edited from; a schedule's are those it was found at.
  const params = resolveParams(exercise.manifest, exercise.from.id, { ...schedule?.value.params, ...given });
  if (!params.ok) return params.error;
  const request: ExploreRequest = {
    scenario,
    variant: EXERCISE_VARIANT_ID,
    params: params.params,
    ...cornersWanted(values, exercise.manifest.params, params.params, given),
    ...budget,
    parallel: EXPLORE_PARALLEL,
  };
  const out = resolve(cwd, values.out ?? `${scenario}-${EXERCISE_VARIANT_ID}.schedule.json`);
  return { exercise, file, source, request, ...(replay ? { replay } : {}), out, json: values.json };
}

const header = ({ exercise, file }: Parsed) => ({ scenario: exercise.scenario.id, exercise: exercise.from.id, file });

const headline = ({ exercise, file }: Parsed): string => `${exercise.scenario.id}: your fix of ${exercise.from.id} (${file})`;

/** How the saved schedule plays again: the same command, with --schedule. */
const replayCommand = ({ exercise, file, out }: Parsed): string =>
  `npm run explore -- --exercise ${exercise.scenario.id} --file ${file} --schedule ${out}`;

function printReport(parsed: Parsed, found: Exploration): void {
  const { request } = parsed;
  const { played, outcomes, failing, smallest, exhausted } = found;
  const within = exhausted ? ', every one within it' : '';
  console.log(
    `${headline(parsed)}: ${plural(played.length, 'schedule')} run (bound ${request.bound} preemptions and faults${within}), ${plural(outcomes.length, 'distinct outcome')}, ${failing.length} failing`,
  );
  const errors = played.filter((p) => p.outcome === 'error');
  if (errors.length > 0) console.log(`${plural(errors.length, 'schedule')} ended the run with an error, e.g. ${errors[0]!.lines[0]}`);
  if (!smallest) return console.log('no failing schedule found');
  printSmallest(smallest, parsed.out, replayCommand(parsed));
}

/** The --json document: the explorer's, with the exercise, the file and the command that replays its schedule. */
function exerciseJson(parsed: Parsed, found: Exploration): unknown {
  return {
    ...header(parsed),
    ...reportWithoutLink(jsonReport({ request: parsed.request, out: parsed.out }, found)),
    ...(found.smallest ? { replay: replayCommand(parsed), figures: found.smallest.metrics } : {}),
  };
}
