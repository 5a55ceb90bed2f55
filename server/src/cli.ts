#!/usr/bin/env node
// The command line for people and CI:
//   npm run scenario -- <scenario> --variant <id> [--param name=value ...] [--json]
//   racelab check --lock ./my-lock.mjs [--json]   (scorecard/check.ts)
//   racelab exercise <scenario> --file my-fix.ts [--json] [--set N]   (exercises/exerciseCli.ts)
//   racelab explore <scenario> --variant <id> [--bound K] [--budget N]   (explore/exploreCli.ts)
//   racelab explore --lock ./my-lock.mjs [--bound K] [--budget N]   (explore/lockExploreCli.ts)
// Exit 0 when the run completed (whatever its verdict), 2 on bad input, 1 when the
// services could not be reached or the run itself failed.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  expectationWords,
  formatParam,
  resolveParams,
  unknownScenario,
  unknownVariant,
  verdictLine,
  type ExpectedVerdict,
  type MetricSpec,
  type RunEvent,
  faultsOf,
} from '@racelab/shared';
import { catalogListing } from './catalogListing.js';
import type { Judged } from './explore/lockJudge.js';
import type { LockModule } from './locks/lockAdapter.js';
import { readCliArgs, USAGE, UsageError, type CliArgs } from './cliArgs.js';
import { readFaultPlan, readScheduleFile } from './faultPlanFile.js';
import { EXPLORE_SPEED, StepScheduler } from './explore/stepScheduler.js';
import { Playground } from './runs/playground.js';
import { expectedOf, findVariant, loadCatalog } from './scenarios/registry.js';
import { probeSetUrls, servicesOrSay } from './services/index.js';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'check') return (await import('./scorecard/check.js')).check(argv.slice(1));
  if (argv[0] === 'explore') return (await import('./explore/exploreCli.js')).exploreCommand(argv.slice(1));
  if (argv[0] === 'exercise') return (await import('./exercises/exerciseCli.js')).exerciseCommand(argv.slice(1));
  let args: CliArgs;
  try {
    args = readCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  // The URLs set are probed while the catalog loads (a PING, nothing started): a store that does
  // not answer is told a probe's timeout after start-up, not after start-up and then the timeout.
  const setUrls = args.list ? undefined : probeSetUrls();
  const ownLock = args.lock === undefined ? undefined : await useOwnLock(args.lock);
  if (typeof ownLock === 'string') {
    console.error(`${ownLock}\n${USAGE}`);
    return 2;
  }
  const catalog = await loadCatalog();
  if (args.list) {
    console.log(catalogListing(catalog.manifests));
    return 0;
  }

  // Validate everything before touching a service: bad input is exit 2, never 1.
  const manifest = catalog.manifests.find((m) => m.id === args.scenario);
  if (!args.scenario || !manifest) {
    const known = catalog.manifests.map((m) => m.id).join(', ');
    console.error(`${args.scenario ? unknownScenario(args.scenario, catalog.manifests) : `no scenario given; known: ${known}`}\n${USAGE}`);
    return 2;
  }
  const variant = manifest.variants.find((v) => v.id === args.variant);
  if (!variant) {
    const known = manifest.variants.map((v) => v.id).join(', ');
    console.error(args.variant ? unknownVariant(args.variant, manifest) : `--variant is required of ${manifest.id}; known: ${known}`);
    return 2;
  }
  const schedule = args.schedule === undefined ? null : await readScheduleFile(args.schedule, manifest.id, variant.id);
  if (schedule && !schedule.ok) {
    console.error(schedule.error);
    return 2;
  }
  // A schedule's parameters are those it was found at; a --param given beside it goes over them.
  const params = resolveParams(manifest, variant.id, { ...schedule?.value.params, ...args.params });
  if (!params.ok) {
    console.error(params.error);
    return 2;
  }
  const plan = args.faults === undefined ? null : await readFaultPlan(args.faults);
  if (plan && !plan.ok) {
    console.error(plan.error);
    return 2;
  }
  const faults = plan?.value;

  const services = await servicesOrSay(setUrls);
  if (!services) return 1;
  let playground: Playground;
  try {
    playground = await Playground.open({ ...services, poolSize: 0 });
  } catch (error) {
    // A store that went silent while the stores were opened: its reason, and no run.
    console.error(`racelab: ${(error as Error).message}`);
    await services.stop();
    lingering = true;
    return 1;
  }
  // Ctrl-C: the run is cancelled and cleans up after itself (no key or schema left behind).
  let stoppedBy: NodeJS.Signals | null = null;
  const stop = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    playground.cancelAll(`stopped by ${signal}`);
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
  try {
    const scheduler = schedule ? new StepScheduler(schedule.value.choices) : undefined;
    const prepared = playground.prepare({
      scenario: manifest.id,
      variant: variant.id,
      params: params.params,
      ...(faults ? { faults } : {}),
      ...(scheduler ? { scheduler, speed: EXPLORE_SPEED } : {}),
    });
    if (!prepared.ok) {
      console.error(prepared.error);
      return 2;
    }
    const outcome = await prepared.run.start();
    const lockVerdict = await lockVerdictOf(ownLock, scheduler, {
      scenario: manifest.id,
      variant: variant.id,
      outcome,
      events: prepared.run.events,
    });
    // Known before the run: a failed run has one too (and is never as expected).
    const expectedVerdict = expectedOf(findVariant(catalog.scenarios.get(manifest.id)!, variant.id)!, params.params);
    if (args.json) {
      const expected = Object.fromEntries(
        (outcome.status === 'finished' ? outcome.results : []).map((r) => [
          r.metric,
          { op: r.op, value: r.value, held: r.held, text: r.text },
        ]),
      );
      const reportedByWorkers = manifest.metrics.filter((m) => m.reported).map((m) => m.name);
      const result = {
        runId: prepared.run.id,
        scenario: manifest.id,
        variant: variant.id,
        correct: variant.correct,
        params: params.params,
        metrics: outcome.status === 'finished' ? outcome.metrics : {},
        expected,
        verdict: outcome.status === 'finished' ? outcome.verdict : 'error',
        expectedVerdict: expectedVerdict.verdict,
        ...(expectedVerdict.reason ? { expectedReason: expectedVerdict.reason } : {}),
        asExpected: outcome.status === 'finished' && outcome.verdict === expectedVerdict.verdict,
        // Figures only a worker can give (the stores keep no record of them), by name.
        ...(reportedByWorkers.length > 0 ? { reportedByWorkers } : {}),
        ...(outcome.status === 'failed' ? { error: outcome.message } : {}),
        // The plan asked for (--faults), and each fault that struck, with the mechanism that
        // played it: the kernel's, libfaketime, a signal, or an imitation.
        ...(faults ? { faultPlan: faults } : {}),
        faults: faultsOf(prepared.run.events),
        // A schedule explore --lock found: the lock's verdict as the explorer judged it.
        ...(lockVerdict ? { lockVerdict } : {}),
        events: prepared.run.events,
      };
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      printHuman(
        manifest.id,
        variant.id,
        variant.correct,
        params.params,
        outcome,
        prepared.run.events,
        manifest.metrics,
        expectedVerdict,
        faults?.length ?? 0,
      );
      if (lockVerdict) {
        console.log(`  your lock, as racelab explore --lock judges it: ${lockVerdict.outcome.toUpperCase()}`);
        for (const line of lockVerdict.lines) console.log(`    ${line}`);
      }
    }
    return stoppedBy ? 130 : outcome.status === 'finished' ? 0 : 1;
  } finally {
    await playground.close();
    await services.stop();
    lingering = playground.storeSilent;
  }
}

/**
 * Set when a store went silent: a frozen server closes none of its connections, and their
 * sockets would keep this process alive after its answer; it then exits as soon as it has said it.
 */
let lingering = false;

function printHuman(
  scenario: string,
  variant: string,
  correct: boolean,
  params: Record<string, unknown>,
  outcome: Awaited<ReturnType<import('./runs/run.js').Run['start']>>,
  events: RunEvent[],
  metrics: MetricSpec[],
  expected: ExpectedVerdict,
  /** Rules of a fault plan (--faults) that the expectation, made for the parameters alone, does not know of. */
  planned: number,
): void {
  const shownParams = Object.entries(params)
    .map(([k, v]) => `${k}=${formatParam(v as never)}`)
    .join(' ');
  console.log(`${scenario} · ${variant} (${correct ? 'correct' : 'broken'}) · ${shownParams}`);
  if (outcome.status === 'failed') {
    console.log(`  run failed: ${outcome.message}`);
    return;
  }
  for (const r of outcome.results) {
    console.log(
      `  ${r.held ? '✓' : '✗'} ${verdictLine(
        r,
        metrics.find((m) => m.name === r.metric),
      )}`,
    );
  }
  const last = events.at(-1)?.atMs ?? 0;
  // "as expected for a correct variant", or "as expected here: <why this one differs from its kind>".
  let why = expected.reason ? `here: ${expected.reason}` : `for a ${correct ? 'correct' : 'broken'} variant`;
  if (planned > 0) why += ` at these parameters; a fault plan of ${planned} rule${planned === 1 ? '' : 's'} struck it too`;
  console.log(
    `  verdict: ${outcome.verdict.toUpperCase()} (${expectationWords(outcome.verdict, expected)} ${why}) in ${Math.round(last)} ms`,
  );
}

/** Loads a lock module of your own as the variant 'your-lock', before the catalog; why it cannot be, as a string. */
async function useOwnLock(given: string): Promise<LockModule | string> {
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
  if (!existsSync(path)) return `no lock module at ${path}`;
  try {
    const { LOCKS, OWN_LOCK_ID } = await (await import('./scorecard/check.js')).importWithLock(path);
    return LOCKS.find((l) => l.id === OWN_LOCK_ID) ?? `${path} was not loaded as a lock of your own`;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A schedule `racelab explore --lock` found, played again on the lock of your own: its verdict
 * as the explorer judged it (lockJudge.ts), beside the scenario's, which counts e-mails.
 */
async function lockVerdictOf(
  lock: LockModule | undefined,
  scheduler: StepScheduler | undefined,
  run: { scenario: string; variant: string; outcome: Awaited<ReturnType<import('./runs/run.js').Run['start']>>; events: RunEvent[] },
): Promise<Judged | undefined> {
  if (!lock || !scheduler || run.variant !== lock.id || run.outcome.status !== 'finished') return undefined;
  const { LOCK_SCENARIO } = await import('./explore/lockExploreCli.js');
  if (run.scenario !== LOCK_SCENARIO) return undefined;
  const { lockJudge } = await import('./explore/lockJudge.js');
  return lockJudge(lock)({ metrics: run.outcome.metrics, events: run.events, trace: scheduler.trace });
}

process.exitCode = await main(process.argv.slice(2));
if (lingering) process.exit();
