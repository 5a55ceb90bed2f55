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
import { parseArgs } from 'node:util';
import {
  createRecording,
  resolveParams,
  scheduleQuery,
  unknownScenario,
  unknownVariant,
  type ScheduleFile,
  type ScenarioManifest,
} from '@racelab/shared';
import { splitParam } from '../commandLine.js';
import { findVariant, loadCatalog } from '../scenarios/registry.js';
import { servicesOrSay } from '../services/index.js';
import type { Exploration, ExploreRequest, PlayedSchedule } from './explorer.js';
import { progressLine } from './progressLine.js';
import { storyOf } from './story.js';

/**
 * Schedules played at once. Each holds its own worker processes and stores; the order of a
 * run's steps is its scheduler's, so what else runs beside it changes its speed, never its
 * verdict. Two keep a 2-core machine busy while one run waits on the stores or its forks.
 */
export const EXPLORE_PARALLEL = 2;

export const EXPLORE_USAGE = `usage: racelab explore <scenario> --variant <id> [--param name=value ...] [--bound K] [--budget N] [--minutes M]
                       [--no-faults] [--first] [--out file.schedule.json] [--json]   (npm run explore -- <scenario> --variant <id>)
       racelab explore --lock <module.mjs> [...]   (a lock module of your own)
       racelab explore --exercise <scenario> --file <my-fix.ts> [...]   (an exercise's edited code)
  --bound    the most preemptions plus faults a schedule may have (default 2)
  --budget   schedules to run at most (default 40)
  --minutes  stop starting schedules after this long (default 10)
  --no-faults  only reorder the workers: no lease runs out, nobody is killed
  --first    stop at the first failing schedule (it is among the cheapest)
       racelab explore --all [--budget N] [--minutes M] [--bound K] [--scenario id ...]: every variant and near-miss, a table`;

const OPTIONS = {
  variant: { type: 'string' },
  param: { type: 'string', multiple: true, default: [] as string[] },
  bound: { type: 'string', default: '2' },
  budget: { type: 'string', default: '40' },
  minutes: { type: 'string', default: '10' },
  'no-faults': { type: 'boolean', default: false },
  first: { type: 'boolean', default: false },
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

type Parsed = { request: ExploreRequest; manifest: ScenarioManifest; out: string; json: boolean; workers: number };

/** The explore command; `cwd` resolves --out. Returns the exit code. */
export async function exploreCommand(argv: string[], cwd = process.env.INIT_CWD ?? process.cwd()): Promise<number> {
  // The whole catalogue, one variant after another: exploreAll.ts.
  if (argv.includes('--all')) return (await import('./exploreAll.js')).exploreAllCommand(argv.filter((a) => a !== '--all'));
  if (argv.some((arg) => arg === '--lock' || arg.startsWith('--lock=')))
    return (await import('./lockExploreCli.js')).exploreLockCommand(argv, cwd);
  if (argv.some((arg) => arg === '--exercise' || arg.startsWith('--exercise=')))
    return (await import('./exerciseExploreCli.js')).exploreExerciseCommand(argv, cwd);
  const parsed = await readRequest(argv, cwd);
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n${EXPLORE_USAGE}`);
    return 2;
  }
  const services = await servicesOrSay();
  if (!services) return 1;
  const { Playground } = await import('../runs/playground.js');
  const { explore } = await import('./explorer.js');
  const { request } = parsed;
  // Warm processes for every schedule playing at once.
  const playground = await Playground.open({ ...services, poolSize: parsed.workers * (request.parallel ?? 1) });
  const progress = progressLine(request, process.stderr);
  try {
    const found = await explore(playground, request, parsed.manifest.metrics, progress.update).finally(progress.done);
    if (found.smallest) writeSmallest(parsed, found.smallest);
    if (parsed.json) console.log(JSON.stringify(jsonReport(parsed, found)));
    else printReport(parsed, found);
    return found.smallest ? 1 : 0;
  } catch (error) {
    console.error(`racelab explore: ${playground.redact((error as Error).message)}`);
    return 1;
  } finally {
    await playground.close();
    await services.stop();
  }
}

/** The request the command line makes, or why it makes none. */
async function readRequest(argv: string[], cwd: string): Promise<Parsed | string> {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    return (error as Error).message;
  }
  const catalog = await loadCatalog();
  const manifest = catalog.manifests.find((m) => m.id === positionals[0]);
  if (positionals.length !== 1 || !manifest) return unknownScenario(positionals[0] ?? '', catalog.manifests);
  const scenario = catalog.scenarios.get(manifest.id)!;
  const definition = values.variant === undefined ? undefined : findVariant(scenario, values.variant, { mutants: true });
  if (!definition) return values.variant ? unknownVariant(values.variant, manifest) : '--variant is required';
  const numbers = { bound: [0, 6], budget: [1, 10_000], minutes: [1, 24 * 60] } as const;
  for (const [name, [min, max]] of Object.entries(numbers)) {
    const n = Number(values[name as keyof typeof numbers]);
    if (!Number.isInteger(n) || n < min || n > max) return `--${name} must be an integer from ${min} to ${max}`;
  }
  let given: Record<string, string>;
  try {
    given = Object.fromEntries(values.param.map(splitParam));
  } catch (error) {
    return (error as Error).message;
  }
  const mutant = !scenario.variants.includes(definition);
  const params = resolveParams(manifest, definition.id, mutant ? { ...definition.defaults, ...given } : given);
  if (!params.ok) return params.error;
  const faults = !values['no-faults'];
  const request: ExploreRequest = {
    scenario: manifest.id,
    variant: definition.id,
    params: params.params,
    mutants: mutant,
    bound: Number(values.bound),
    budget: Number(values.budget),
    timeMs: Number(values.minutes) * 60_000,
    faults: { expire: faults, kill: faults },
    firstFailure: values.first,
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
    params: request.params as ScheduleFile['params'],
    choices: smallest.choices,
    story: storyOf(smallest.trace),
    verdict: smallest.lines,
  };
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  writeFileSync(recordingPath(out), JSON.stringify(createRecording(manifest, request.variant, smallest.events, new Date())));
}

const costWords = ({ cost }: PlayedSchedule): string =>
  `${cost.preemptions} preemption${cost.preemptions === 1 ? '' : 's'}, ${cost.faults} fault${cost.faults === 1 ? '' : 's'}`;

function printReport({ request, out }: Parsed, found: Exploration): void {
  const { played, outcomes, failing, smallest, exhausted } = found;
  console.log(
    `${request.scenario} ${request.variant}: ${played.length} schedule${played.length === 1 ? '' : 's'} run (bound ${request.bound} preemptions and faults${exhausted ? ', every one within it' : ''}), ${outcomes.length} distinct outcome${outcomes.length === 1 ? '' : 's'}, ${failing.length} failing`,
  );
  const errors = played.filter((p) => p.outcome === 'error');
  if (errors.length > 0)
    console.log(`${errors.length} schedule${errors.length === 1 ? '' : 's'} ended the run with an error, e.g. ${errors[0]!.lines[0]}`);
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
  scheduleQuery({ ...request, params: request.params as ScheduleFile['params'], choices: smallest.choices });

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
