// What the explore commands (of a variant, a lock of your own, an exercise's edited code) share:
// the options of a search (its bound, budget and time, whether faults are placed, whether it stops
// at the first failure, the parameters given with --param), the stores and a warm pool, the
// search with its progress on stderr, and the smallest failing schedule in words.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { MetricSpec, ParamSpec, Params } from '@racelab/shared';
import { paramCorners } from './corners.js';
import { splitParam } from '../commandLine.js';
import type { Playground } from '../runs/playground.js';
import { servicesOrSay } from '../services/index.js';
import type { Exploration, ExploreRequest, PlayedSchedule } from './explorer.js';
import { progressLine } from './progressLine.js';
import { recordingPath, writeSmallest, type Parsed } from './exploreCli.js';
import { storyOf } from './story.js';

/** parseArgs options of a search. */
export const SEARCH_OPTIONS = {
  param: { type: 'string', multiple: true, default: [] as string[] },
  bound: { type: 'string', default: '2' },
  budget: { type: 'string', default: '40' },
  minutes: { type: 'string', default: '10' },
  'no-faults': { type: 'boolean', default: false },
  'no-corners': { type: 'boolean', default: false },
  first: { type: 'boolean', default: false },
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** The values parseArgs gives for SEARCH_OPTIONS. */
export interface SearchValues {
  param: string[];
  bound: string;
  budget: string;
  minutes: string;
  'no-faults': boolean;
  'no-corners': boolean;
  first: boolean;
}

export type SearchBudget = Pick<ExploreRequest, 'bound' | 'budget' | 'timeMs' | 'faults' | 'firstFailure'>;

const BOUNDS = { bound: [0, 6], budget: [1, 10_000], minutes: [1, 24 * 60] } as const;

type Options = NonNullable<ParseArgsConfig['options']>;

/** The command line read against a command's options (positionals allowed, nothing unknown), or why it does not read. */
export function readArgs<T extends Options>(
  argv: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> | string {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    return (error as Error).message;
  }
}

/** The search's bound, budget, time and faults, or which option is out of its bounds. */
export function searchBudget(values: SearchValues): SearchBudget | string {
  for (const [name, [min, max]] of Object.entries(BOUNDS)) {
    const n = Number(values[name as keyof typeof BOUNDS]);
    if (!Number.isInteger(n) || n < min || n > max) return `--${name} must be an integer from ${min} to ${max}`;
  }
  const faults = !values['no-faults'];
  return {
    bound: Number(values.bound),
    budget: Number(values.budget),
    timeMs: Number(values.minutes) * 60_000,
    faults: { expire: faults, kill: faults },
    firstFailure: values.first,
  };
}

/** The corners of the parameters (corners.ts) the search starts from too, unless --no-corners; none of those given with --param. */
export function cornersWanted(
  values: Pick<SearchValues, 'no-corners'>,
  specs: ParamSpec[],
  params: Params,
  given: Record<string, string>,
): Pick<ExploreRequest, 'corners'> {
  return values['no-corners'] ? {} : { corners: paramCorners(specs, params, Object.keys(given)) };
}

/** The --param pairs by name, or why one is not a pair. */
export function paramsGiven(pairs: string[]): Record<string, string> | string {
  try {
    return Object.fromEntries(pairs.map(splitParam));
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Finds the stores, opens a playground whose warm pool holds `poolSize` workers, and runs the
 * command's `work` on it; 1 when the stores cannot be reached or the work throws (its message
 * redacted), and everything closed whichever way it ends (`close` first, when given).
 */
export async function onPlayground(
  poolSize: number,
  work: (playground: Playground) => Promise<number>,
  close?: () => Promise<void>,
): Promise<number> {
  const services = await servicesOrSay();
  if (!services) return 1;
  const { Playground } = await import('../runs/playground.js');
  const playground = await Playground.open({ ...services, poolSize });
  try {
    return await work(playground);
  } catch (error) {
    console.error(`racelab explore: ${playground.redact((error as Error).message)}`);
    return 1;
  } finally {
    await playground.close();
    await close?.();
    await services.stop();
  }
}

/**
 * A search command from its command line read: the usage and exit 2 when it did not read;
 * otherwise the search on a warm pool and its report (searchAndReport).
 */
export async function runSearchCommand<P extends Pick<Parsed, 'request' | 'manifest' | 'out' | 'json' | 'workers'>>(
  parsed: P | string,
  usage: string,
  report: (parsed: P) => { json(found: Exploration): unknown; print(found: Exploration): void },
): Promise<number> {
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n${usage}`);
    return 2;
  }
  // Warm processes for every schedule playing at once.
  const poolSize = parsed.workers * (parsed.request.parallel ?? 1);
  return onPlayground(poolSize, (playground) => searchAndReport(playground, parsed, report(parsed)));
}

/**
 * The search a command asks for, on `playground`: its smallest failing schedule written, then
 * the report, as JSON or in words; exit 1 when a schedule failed, 0 when none did.
 */
export async function searchAndReport(
  playground: Playground,
  parsed: Pick<Parsed, 'request' | 'manifest' | 'out' | 'json'>,
  report: { json(found: Exploration): unknown; print(found: Exploration): void },
): Promise<number> {
  const found = await searchShowingProgress(playground, parsed.request, parsed.manifest.metrics);
  if (found.smallest) writeSmallest(parsed, found.smallest);
  if (parsed.json) console.log(JSON.stringify(report.json(found)));
  else report.print(found);
  return found.smallest ? 1 : 0;
}

/** Explores as `request` says, the progress line on stderr while it runs (progressLine.ts). */
export async function searchShowingProgress(playground: Playground, request: ExploreRequest, metrics: MetricSpec[]): Promise<Exploration> {
  const { explore } = await import('./explorer.js');
  const progress = progressLine(request, process.stderr);
  return explore(playground, request, metrics, progress.update).finally(progress.done);
}

/** "1 preemption", "2 faults". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "1 preemption, 0 faults", and the corner of the parameters it ran at ("initialStock at its lowest, 0"). */
export const costWords = ({ cost, corner }: PlayedSchedule): string =>
  `${plural(cost.preemptions, 'preemption')}, ${plural(cost.faults, 'fault')}${corner ? `, ${corner.words}` : ''}`;

/** The smallest failing schedule: its cost, its story, its verdict's lines, the files written and how it plays again. */
export function printSmallest(smallest: PlayedSchedule, out: string, replay: string): void {
  console.log(`smallest failing schedule: ${costWords(smallest)}, ${smallest.choices.length} decisions`);
  for (const line of storyOf(smallest.trace)) console.log(`  ${line}`);
  for (const line of smallest.lines) console.log(`  → ${line}`);
  console.log(`written: ${out}\n  play it again: ${replay}`);
  console.log(`written: ${recordingPath(out)}\n  open it in the page: Open recording`);
}

/**
 * The explorer's --json document (exploreCli.ts) for a variant the page cannot load from a link
 * (a lock module of your own, edited code): without the page's link.
 */
export function reportWithoutLink(report: unknown): Record<string, unknown> {
  const { smallest, ...rest } = report as { smallest?: Record<string, unknown> };
  if (!smallest) return rest;
  const { page, ...kept } = smallest;
  return { ...rest, smallest: kept };
}
