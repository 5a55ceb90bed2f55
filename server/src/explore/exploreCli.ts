// `racelab explore <scenario> --variant <v> [--param name=value …] [--bound K] [--budget N]
// [--minutes M] [--out file.schedule.json] [--json]` (npm run explore -- …): searches the
// variant's schedules on real workers and stores, cheapest first, and reports what it ran,
// the distinct outcomes and the smallest failing schedule in words; that schedule is written
// as a schedule file (`npm run scenario -- … --schedule <file>` plays it again) and as a
// recording (the page's "Open recording"). While it runs, a progress line on stderr says how
// many schedules ran and failed, the rate and the time left of the budget (progressLine.ts).
// Exit 0 when no schedule failed, 1 when one did (or the stores could not be reached), 2 on
// bad input. `racelab explore --all` explores the whole catalogue (exploreAll.ts).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createRecording,
  resolveParams,
  scheduleQuery,
  unknownScenario,
  unknownVariant,
  type ScheduleFile,
  type ScenarioManifest,
} from '@racelab/shared';
import { findVariant, loadCatalog } from '../scenarios/registry.js';
import type { Exploration, ExploreRequest, PlayedSchedule } from './explorer.js';
import { costWords, cornersWanted, paramsGiven, runSearchCommand, searchBudget, readArgs, SEARCH_OPTIONS } from './searchCommand.js';
import { storyOf } from './story.js';

/**
 * Schedules played at once. Each holds its own worker processes and stores; the order of a
 * run's steps is its scheduler's, so what else runs beside it changes its speed, never its
 * verdict. Two keep a 2-core machine busy while one run waits on the stores or its forks.
 */
export const EXPLORE_PARALLEL = 2;

export const EXPLORE_USAGE = `usage: racelab explore <scenario> --variant <id> [--param name=value ...] [--bound K] [--budget N] [--minutes M]
                       [--no-faults] [--no-corners] [--first] [--out file.schedule.json] [--json]   (npm run explore -- <scenario> --variant <id>)
       racelab explore --lock <module.mjs> [...]   (a lock module of your own)
       racelab explore --exercise <scenario> --file <my-fix.ts> [...]   (an exercise's edited code)
       racelab explore --all [--budget N] [--minutes M] [--bound K] [--scenario id ...]   (every variant and near-miss, a table)
  --bound    the most preemptions plus faults a schedule may have (default 2)
  --budget   schedules to run at most (default 40)
  --minutes  stop starting schedules after this long (default 10)
  --no-faults  only reorder the workers: no lease runs out, nobody is killed
  --no-corners  only the parameters given: no schedule starts from a parameter at a bound of its range
  --first    stop at the first failing schedule (it is among the cheapest)`;

const OPTIONS = { variant: { type: 'string' }, ...SEARCH_OPTIONS } as const;

export type Parsed = { request: ExploreRequest; manifest: ScenarioManifest; out: string; json: boolean; workers: number };

/** The explore command; `cwd` resolves --out. Returns the exit code. */
export async function exploreCommand(argv: string[], cwd = process.env.INIT_CWD ?? process.cwd()): Promise<number> {
  // The whole catalogue, one variant after another: exploreAll.ts.
  if (argv.includes('--all')) return (await import('./exploreAll.js')).exploreAllCommand(argv.filter((a) => a !== '--all'));
  if (argv.some((arg) => arg === '--lock' || arg.startsWith('--lock=')))
    return (await import('./lockExploreCli.js')).exploreLockCommand(argv, cwd);
  if (argv.some((arg) => arg === '--exercise' || arg.startsWith('--exercise=')))
    return (await import('./exerciseExploreCli.js')).exploreExerciseCommand(argv, cwd);
  return runSearchCommand(await readRequest(argv, cwd), EXPLORE_USAGE, (parsed) => ({
    json: (found) => jsonReport(parsed, found),
    print: (found) => printReport(parsed, found),
  }));
}

/** The request the command line makes, or why it makes none. */
async function readRequest(argv: string[], cwd: string): Promise<Parsed | string> {
  const read = readArgs(argv, OPTIONS);
  if (typeof read === 'string') return read;
  const { values, positionals } = read;
  const catalog = await loadCatalog();
  const manifest = catalog.manifests.find((m) => m.id === positionals[0]);
  if (positionals.length !== 1 || !manifest) return unknownScenario(positionals[0] ?? '', catalog.manifests);
  const scenario = catalog.scenarios.get(manifest.id)!;
  const definition = values.variant === undefined ? undefined : findVariant(scenario, values.variant, { mutants: true });
  if (!definition) return values.variant ? unknownVariant(values.variant, manifest) : '--variant is required';
  const budget = searchBudget(values);
  if (typeof budget === 'string') return budget;
  const given = paramsGiven(values.param);
  if (typeof given === 'string') return given;
  const mutant = !scenario.variants.includes(definition);
  const params = resolveParams(manifest, definition.id, mutant ? { ...definition.defaults, ...given } : given);
  if (!params.ok) return params.error;
  const request: ExploreRequest = {
    scenario: manifest.id,
    variant: definition.id,
    params: params.params,
    ...cornersWanted(values, manifest.params, params.params, given),
    mutants: mutant,
    ...budget,
    parallel: EXPLORE_PARALLEL,
  };
  const out = resolve(cwd, values.out ?? `${manifest.id}-${definition.id}.schedule.json`);
  return { request, manifest, out, json: values.json, workers: scenario.workers(params.params).length };
}

export const recordingPath = (out: string): string => out.replace(/(\.schedule)?\.json$/, '') + '.recording.json';

/** The smallest failing schedule, as a schedule file and as a recording. */
export function writeSmallest({ request, manifest, out }: Pick<Parsed, 'request' | 'manifest' | 'out'>, smallest: PlayedSchedule): void {
  const file: ScheduleFile = {
    kind: 'racelab-schedule',
    version: 1,
    scenario: request.scenario,
    variant: request.variant,
    params: smallest.params as ScheduleFile['params'],
    choices: smallest.choices,
    story: storyOf(smallest.trace),
    verdict: smallest.lines,
  };
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  writeFileSync(recordingPath(out), JSON.stringify(createRecording(manifest, request.variant, smallest.events, new Date())));
}

function printReport({ request, out }: Parsed, found: Exploration): void {
  const { played, outcomes, failing, smallest, exhausted } = found;
  console.log(
    `${request.scenario} ${request.variant}: ${played.length} schedule${played.length === 1 ? '' : 's'} run (bound ${request.bound} preemptions and faults${exhausted ? ', every one within it' : ''}), ${outcomes.length} distinct outcome${outcomes.length === 1 ? '' : 's'}, ${failing.length} failing`,
  );
  const errors = played.filter((p) => p.outcome === 'error');
  if (errors.length > 0)
    console.log(`${errors.length} schedule${errors.length === 1 ? '' : 's'} ended the run with an error, e.g. ${errors[0]!.lines[0]}`);
  const broke = found.assumptionsBroken;
  if (broke.length > 0)
    console.log(
      `${broke.length} schedule${broke.length === 1 ? '' : 's'} failed and ${broke.length === 1 ? 'was' : 'were'} kept apart, not failures of the variant (what its verdict rests on broken, or the correct variant it changes failing too): ${[...new Set(broke.map((p) => p.assumption!))].join('; ')}`,
    );
  if (!smallest) return console.log('no failing schedule found');
  console.log(`smallest failing schedule: ${costWords(smallest)}, ${smallest.choices.length} decisions`);
  for (const line of storyOf(smallest.trace)) console.log(`  ${line}`);
  for (const line of smallest.lines.slice(0, 3)) console.log(`  → ${line}`);
  console.log(`written: ${out}\n  play it again: npm run scenario -- ${request.scenario} --variant ${request.variant} --schedule ${out}`);
  console.log(`written: ${recordingPath(out)}\n  open it in the page: Open recording`);
  console.log(`replay it live: the page's address (npm start) followed by\n  ${pageLink(request, smallest)}`);
}

/** The query that replays the schedule live, after the page's address (npm start serves it on port 7070 unless PORT says). */
const pageLink = (request: ExploreRequest, smallest: PlayedSchedule): string =>
  scheduleQuery({ ...request, params: smallest.params as ScheduleFile['params'], choices: smallest.choices });

/** The exploration as the --json document. */
export function jsonReport({ request, out }: Pick<Parsed, 'request' | 'out'>, found: Exploration): unknown {
  const { played, outcomes, failing, smallest, exhausted } = found;
  return {
    scenario: request.scenario,
    variant: request.variant,
    params: request.params,
    bound: request.bound,
    schedules: played.length,
    exhausted,
    outcomes,
    failing: failing.length,
    assumptionsBroken: found.assumptionsBroken.map((p) => ({ assumption: p.assumption, choices: p.choices.length, verdict: p.lines[0] })),
    errors: played.filter((p) => p.outcome === 'error').length,
    ...(smallest
      ? {
          smallest: {
            cost: smallest.cost,
            choices: smallest.choices,
            story: storyOf(smallest.trace),
            verdict: smallest.lines,
            file: out,
            recording: recordingPath(out),
            page: pageLink(request, smallest),
          },
        }
      : {}),
  };
}
