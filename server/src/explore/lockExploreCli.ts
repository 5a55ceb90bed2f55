// `racelab explore --lock ./my-lock.mjs [--param name=value …] [--bound K] [--budget N]
// [--minutes M] [--no-faults] [--first] [--out file.schedule.json] [--json]`: searches the
// schedules of your lock module in duplicate-job, where every lock runs in `racelab check`
// (as the variant 'your-lock', behind the same adapter), each call of the lock a scheduling
// point. A schedule fails when the lock breaks what it promises (lockJudge.ts): a release
// removes another holder's lock, a killed holder's key never expires, two containers build at
// once with no lease run out; a second e-mail after a lease ran out is a figure, not a failure.
// The smallest failing schedule is written as the explorer writes any (a schedule file and a
// recording); it plays again with the lock named once more:
// `npm run scenario -- duplicate-job --variant your-lock --lock <module.mjs> --schedule <file>`.
// Exit 0 when no schedule failed, 1 when one did (or the stores could not be reached), 2 on bad input.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveParams, type ScenarioManifest } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import { importWithLock } from '../scorecard/check.js';
import { EXPLORE_PARALLEL, jsonReport } from './exploreCli.js';
import type { Exploration, ExploreRequest } from './explorer.js';
import { lockJudge } from './lockJudge.js';
import {
  cornersWanted,
  paramsGiven,
  plural,
  printSmallest,
  searchBudget,
  reportWithoutLink,
  runSearchCommand,
  readArgs,
  SEARCH_OPTIONS,
} from './searchCommand.js';

/** Where every lock is explored: the scenario `racelab check` runs its release after expiry and its killed holder in. */
export const LOCK_SCENARIO = 'duplicate-job';

export const EXPLORE_LOCK_USAGE = `usage: racelab explore --lock <module.mjs> [--param name=value ...] [--bound K] [--budget N] [--minutes M]
                       [--no-faults] [--first] [--out file.schedule.json] [--json]   (npm run explore -- --lock <module.mjs>)
  explores your lock in ${LOCK_SCENARIO} (--param sets its parameters: workers, workMs, leaseMs, arrival, failure)`;

const OPTIONS = { lock: { type: 'string' }, ...SEARCH_OPTIONS } as const;

interface Parsed {
  request: ExploreRequest;
  manifest: ScenarioManifest;
  lock: LockModule;
  /** The module's absolute path. */
  path: string;
  out: string;
  json: boolean;
  workers: number;
}

/** The command; `cwd` resolves --lock and --out. Returns the exit code. */
export async function exploreLockCommand(argv: string[], cwd: string): Promise<number> {
  return runSearchCommand(await readRequest(argv, cwd), EXPLORE_LOCK_USAGE, (parsed) => ({
    json: (found) => lockJson(parsed, found),
    print: (found) => printReport(parsed, found),
  }));
}

/** The exploration the command line asks for, or why it asks for none. */
async function readRequest(argv: string[], cwd: string): Promise<Parsed | string> {
  const read = readArgs(argv, OPTIONS);
  if (typeof read === 'string') return read;
  const { values, positionals } = read;
  if (positionals.length > 0)
    return `--lock explores your lock in ${LOCK_SCENARIO}: no scenario is named beside it (got '${positionals[0]}')`;
  if (!values.lock) return '--lock needs the path of a lock module';
  const path = resolve(cwd, values.lock);
  if (!existsSync(path)) return `no lock module at ${path}`;
  const budget = searchBudget(values);
  if (typeof budget === 'string') return budget;
  const given = paramsGiven(values.param);
  if (typeof given === 'string') return given;
  let lock: LockModule | undefined;
  try {
    // Before the catalog loads: the catalog and every worker then have the lock as 'your-lock'.
    const { LOCKS, OWN_LOCK_ID } = await importWithLock(path);
    lock = LOCKS.find((l) => l.id === OWN_LOCK_ID);
  } catch (error) {
    return (error as Error).message;
  }
  if (!lock) return `${path} was not loaded as a lock of your own`;
  const { loadCatalog } = await import('../scenarios/registry.js');
  const catalog = await loadCatalog();
  const manifest = catalog.manifests.find((m) => m.id === LOCK_SCENARIO)!;
  const params = resolveParams(manifest, lock.id, given);
  if (!params.ok) return params.error;
  const request: ExploreRequest = {
    scenario: LOCK_SCENARIO,
    variant: lock.id,
    params: params.params,
    ...cornersWanted(values, manifest.params, params.params, given),
    ...budget,
    parallel: EXPLORE_PARALLEL,
    judge: lockJudge(lock),
  };
  const out = resolve(cwd, values.out ?? `${LOCK_SCENARIO}-${lock.id}.schedule.json`);
  const workers = catalog.scenarios.get(LOCK_SCENARIO)!.workers(params.params).length;
  return { request, manifest, lock, path, out, json: values.json, workers };
}

/** How the saved schedule plays again: the lock named once more, as the workers must load it. */
const replayCommand = ({ request, path, out }: Parsed): string =>
  `npm run scenario -- ${request.scenario} --variant ${request.variant} --lock ${path} --schedule ${out}`;

function printReport(parsed: Parsed, found: Exploration): void {
  const { request, lock, path } = parsed;
  const { played, failing, smallest, exhausted } = found;
  console.log(`${lock.name} (${path}), explored in ${request.scenario} as the variant '${request.variant}'`);
  if (lock.fences) console.log('  (its fence is not explored: fencing is not run under schedules for a lock of your own yet)');
  const within = exhausted ? 'every one within it' : 'not every one within it';
  console.log(
    `${plural(played.length, 'schedule')} run (bound ${request.bound} preemptions and faults, ${within}), ${failing.length} failing`,
  );
  const errors = played.filter((p) => p.outcome === 'error');
  if (errors.length > 0) console.log(`${plural(errors.length, 'schedule')} ended the run with an error, e.g. ${errors[0]!.lines[0]}`);
  if (!smallest) {
    console.log(
      "no failing schedule found: no release removed another holder's lock, no key was left without an expiry, no two containers built at once with no lease run out",
    );
    return;
  }
  printSmallest(smallest, parsed.out, replayCommand(parsed));
}

/** The --json document: the explorer's, with the lock and the command that replays its schedule. */
function lockJson(parsed: Parsed, found: Exploration): unknown {
  return {
    lock: parsed.path,
    name: parsed.lock.name,
    ...reportWithoutLink(jsonReport(parsed, found)),
    ...(found.smallest ? { replay: replayCommand(parsed), figures: found.smallest.metrics } : {}),
  };
}
