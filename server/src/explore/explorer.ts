// The search over schedules. Each schedule is played as a real run (real processes, real
// stores, the scenario's own verdict); its trace says where else it could have gone. New
// schedules branch off a run's trace past the decisions it was told to make: another waiting
// worker goes (a preemption when the one that went last could have gone on), or a fault
// first (a lease runs out on Redis's clock, a worker is killed). They are tried cheapest
// first, a schedule's cost being its preemptions plus its faults, within a bound on that cost
// and a budget of schedules and time: the few-preemptions bound under which most real races
// show. Several schedules play at once (their order is the scheduler's, never the machine's:
// a run's verdict does not depend on what else runs), each taken cheapest first from the
// frontier; the smallest failing one is the cheapest of those played. A correct variant's
// failing schedule that broke an assumption its verdict rests on (assumptions.ts) is kept
// apart, as that assumption broken, and the search goes on for a failure of the variant; so is
// a near-miss's failing schedule that fails the correct variant it changes the same way.
import { verdictLine, type MetricSpec, type Params, type Metrics, type RunEvent, type ScheduleChoice, type StepAt } from '@racelab/shared';
import type { OwnCode } from '../runs/ownCode.js';
import type { Playground } from '../runs/playground.js';
import { findVariant } from '../scenarios/registry.js';
import { EXPLORE_SPEED, SPINNING_AFTER, StepScheduler, type Decision } from './stepScheduler.js';
import { assumptionsOf, brokenAssumption, notExplorable } from './assumptions.js';
import { conflicts, keysOf, stepKey, writes } from './conflicts.js';
import type { ParamCorner } from './corners.js';

export interface ExploreRequest {
  scenario: string;
  variant: string;
  params: Record<string, unknown>;
  /** The variant may be one of the scenario's near-miss mutants. */
  mutants?: boolean;
  /** The highest cost (preemptions plus faults) a schedule may have. */
  bound: number;
  /** Schedules to run at most. */
  budget: number;
  /** Stop starting schedules after this long, in ms. */
  timeMs: number;
  /** Faults the schedules may place: leases expiring, workers killed. */
  faults: { expire: boolean; kill: boolean };
  /** Stop at the first failing schedule (the ones already playing finish). */
  firstFailure?: boolean;
  /** Schedules played at once (1 when absent). */
  parallel?: number;
  /** An exercise's edited code, played as the variant (runs/ownCode.ts). */
  ownCode?: OwnCode;
  /** Parameter sets to start from besides `params`, each one parameter at a bound (corners.ts); each counts one toward the bound. */
  corners?: ParamCorner[];
  /** Judges each run in place of the scenario's verdict (a lock of your own: its promises, lockJudge.ts). */
  judge?: (run: { metrics: Metrics; events: RunEvent[]; trace: Decision[] }) => { outcome: 'pass' | 'fail'; lines: string[] };
}

/** How far an exploration has gone: told after each schedule played. */
export interface ExploreProgress {
  played: number;
  failing: number;
  /** Since the exploration started, in ms. */
  elapsedMs: number;
}

/** One schedule played. */
export interface PlayedSchedule {
  choices: ScheduleChoice[];
  /** The parameters it ran at: the request's, or one of its corners. */
  params: Record<string, unknown>;
  /** The corner it ran at, when not at the request's parameters. */
  corner?: ParamCorner;
  cost: { preemptions: number; faults: number };
  outcome: 'pass' | 'fail' | 'error';
  /** A failing schedule of a correct variant that broke an assumption its verdict rests on: the assumption's words. */
  assumption?: string;
  /** The verdict's lines (the failed ones first), or the run's error. */
  lines: string[];
  /** How many of `lines` are failed ones (the scenario's verdict; absent for a judge's or an error). */
  failedLines?: number;
  metrics: Metrics;
  trace: Decision[];
  events: RunEvent[];
}

export interface Exploration {
  /** Every schedule played; a passing one without its trace and events (they are not kept). */
  played: PlayedSchedule[];
  /** Distinct outcomes: each set of measured figures (or error), and how many schedules gave it. */
  outcomes: Array<{ outcome: 'pass' | 'fail' | 'error'; figures: string; schedules: number }>;
  /** The failing schedules that broke no assumption of the variant: its failures. */
  failing: PlayedSchedule[];
  /** The failing schedules that broke an assumption the variant's verdict rests on. */
  assumptionsBroken: PlayedSchedule[];
  /** The cheapest failing schedule (fewest preemptions and faults, then fewest decisions). */
  smallest?: PlayedSchedule;
  /** Every schedule within the bound was played (none was left for the budget or the time). */
  exhausted: boolean;
}

interface Candidate {
  /** The played schedule's choices it keeps (the first `at`), shared with its siblings, and its own. */
  prefix: readonly ScheduleChoice[];
  at: number;
  choice?: ScheduleChoice;
  /** A digest of its choices (and `ahead`): schedules already played or waiting are skipped. */
  key: string;
  /** The last choice's worker goes on to this step of its own (StepScheduler's `ahead`). */
  ahead?: StepAt;
  /** Played at this corner of the parameters, not at the request's. */
  corner?: ParamCorner;
  cost: number;
  /** Its place among the schedules of the same cost (FAULT_RANK). */
  rank: number;
}

/**
 * At the same cost, a schedule whose lease runs out (the lease's own failure) comes first, then
 * one that only reorders, each the one that turns off sooner in the run first; then one that kills
 * a worker right after it changed a store (it holds what it wrote: a lock without expiry, a
 * half-done job); then the default schedule at each corner of the parameters (corners.ts: a
 * mistake no order of the steps shows at the request's parameters; a handful, one run each);
 * then any other kill. A near-miss starts at its corners, before anything else of cost 1: most
 * near-misses' mistakes are declared at a parameter set, not at the defaults, while its
 * reorderings and kills mostly fail its correct variant the same way (an admin killed before
 * its sale) and, each giving more of the same cost, kept lost-update's from its corner past 100
 * schedules. A broken variant's corners come late: its lesson is an order of the steps, and a
 * corner (twenty containers arriving one after another) would stand in for it.
 */
const FAULT_RANK = { nearMissCorner: 0, expire: 1, none: 2, killAfterWrite: 3, corner: 4, kill: 5 } as const;

/** A failure of the variant: failing, without breaking an assumption its verdict rests on. */
export const failsTheVariant = (p: PlayedSchedule): boolean => p.outcome === 'fail' && p.assumption === undefined;

const costOf = (choices: ScheduleChoice[], trace: Decision[]): PlayedSchedule['cost'] => ({
  preemptions: trace.filter((d) => d.preemption).length,
  faults: choices.filter((c) => c.expire !== undefined || c.kill).length,
});

/** Searches the schedules of one scenario's variant; `onPlayed` hears of each schedule played. */
export async function explore(
  playground: Playground,
  request: ExploreRequest,
  metrics: MetricSpec[],
  onPlayed?: (progress: ExploreProgress) => void,
): Promise<Exploration> {
  const started = Date.now();
  const why = whyNotExplorable(playground, request);
  if (why !== undefined) throw new Error(`${request.scenario} ${request.variant} is not explorable: ${why}`);
  const root: Candidate = { prefix: [], at: 0, key: '', cost: 0, rank: FAULT_RANK.none };
  const frontier: Candidate[] = [root];
  const seen = new Set<string>(['']);
  const played: PlayedSchedule[] = [];
  const playing = new Set<Promise<void>>();
  let launched = 0;
  let stopped = false;
  const mayStart = (): boolean => !stopped && frontier.length > 0 && launched < request.budget && Date.now() - started < request.timeMs;
  const start = (next: Candidate): void => {
    launched++;
    const choices = choicesOf(next);
    const { corner } = next;
    const at = corner ? { ...request, params: { ...request.params, [corner.name]: corner.value } } : request;
    const going: Promise<void> = play(playground, at, choices, metrics, next.ahead).then((ran) => {
      const run = corner ? { ...ran, corner } : ran;
      playing.delete(going);
      if (failsTheVariant(run) && request.firstFailure) stopped = true;
      // The corners join once the default has given its branches, to be ranked among them.
      const own = branchesFrom(run) ? branches(run, choices.length, request, corner) : [];
      const children = [...own, ...(next === root ? cornersToTry(playground, request) : [])];
      for (const child of children) {
        if (child.cost > request.bound || seen.has(child.key)) continue;
        seen.add(child.key);
        frontier.push(child);
      }
      // A passing schedule's trace has given its branches; its timeline is not kept.
      played.push(run.outcome === 'pass' ? { ...run, trace: [], events: [] } : run);
      onPlayed?.({ played: played.length, failing: played.filter(failsTheVariant).length, elapsedMs: Date.now() - started });
    });
    playing.add(going);
  };
  for (;;) {
    while (playing.size < (request.parallel ?? 1) && mayStart()) {
      frontier.sort(cheapestFirst);
      start(frontier.shift()!);
    }
    if (playing.size === 0) break;
    await Promise.race(playing);
  }
  const failing = played.filter(failsTheVariant);
  const smallest = [...failing].sort(smallestFirst)[0];
  return {
    played,
    outcomes: outcomesOf(played),
    failing,
    assumptionsBroken: played.filter((p) => p.outcome === 'fail' && p.assumption !== undefined),
    ...(smallest ? { smallest } : {}),
    exhausted: !stopped && frontier.length === 0,
  };
}

/**
 * The most decisions a played schedule's trace may hold and still give branches. Finding each
 * step's race walks back through the trace, which costs the square of its length; the longest
 * trace a variant of the catalogue gives at its defaults or a corner ends in under 4,000
 * decisions (hot-key's 40 jobs on one key). A run that spun far past that (hot-key's
 * loser-skips on ten workers: 354,395 decisions to its deadline) would hold the search for
 * hours.
 */
const MOST_DECISIONS_BRANCHED = SPINNING_AFTER;

/**
 * Whether a played schedule gives branches: one that reached a verdict, within the length above.
 * A run that ended in an error (its deadline, a lost store) has no verdict to branch from: its
 * trace stops where the error came, not where the run's code would have ended.
 */
const branchesFrom = (run: PlayedSchedule): boolean => run.outcome !== 'error' && run.trace.length <= MOST_DECISIONS_BRANCHED;

const cheapestFirst = (a: Candidate, b: Candidate): number => a.cost - b.cost || a.rank - b.rank || a.at - b.at;

const choicesOf = (c: Candidate): ScheduleChoice[] => [...c.prefix.slice(0, c.at), ...(c.choice ? [c.choice] : [])];

/** The cheaper of two played schedules: fewer preemptions and faults, then fewer decisions. */
const smallestFirst = (a: PlayedSchedule, b: PlayedSchedule): number =>
  costOfPlayed(a) - costOfPlayed(b) || a.choices.length - b.choices.length;

/** A played schedule's preemptions and faults, and one for a corner of the parameters. */
export const costOfPlayed = (p: PlayedSchedule): number => p.cost.preemptions + p.cost.faults + (p.corner ? 1 : 0);

/** Plays one schedule as a real run, to its verdict. */
export async function play(
  playground: Playground,
  request: Pick<ExploreRequest, 'scenario' | 'variant' | 'params' | 'mutants' | 'ownCode' | 'judge'>,
  choices: ScheduleChoice[],
  metrics: MetricSpec[],
  ahead?: StepAt,
): Promise<PlayedSchedule> {
  const scheduler = new StepScheduler(choices, ahead);
  const { scenario, variant, params, mutants, ownCode } = request;
  const prepared = playground.prepare({
    scenario,
    variant,
    params,
    mutants,
    ...(ownCode ? { ownCode } : {}),
    scheduler,
    speed: EXPLORE_SPEED,
  });
  if (!prepared.ok) throw new Error(prepared.error);
  const outcome = await prepared.run.start();
  await prepared.run.settled;
  const base = { choices: scheduler.trace.map((d) => d.choice), params, cost: costOf(choices, scheduler.trace), trace: scheduler.trace };
  const events = prepared.run.events;
  if (outcome.status === 'failed') return { ...base, outcome: 'error', lines: [outcome.message], metrics: {}, events };
  if (request.judge) {
    return { ...base, ...request.judge({ metrics: outcome.metrics, events, trace: scheduler.trace }), metrics: outcome.metrics, events };
  }
  // What holds only in the choreography's order is no verdict on a schedule that chose another.
  const staged = playground.catalog.scenarios.get(scenario)?.stagedExpectations ?? [];
  const results = outcome.results.filter((r) => !staged.includes(r.id)).sort((a, b) => Number(a.held) - Number(b.held));
  const lines = results.map((r) =>
    verdictLine(
      r,
      metrics.find((m) => m.name === r.metric),
    ),
  );
  const failedLines = results.filter((r) => !r.held).length;
  const verdict = failedLines === 0 ? 'pass' : 'fail';
  const assumption =
    verdict === 'fail'
      ? (brokenAssumption(assumptionsFor(playground, request), { ...base, events, brokenInStores: scheduler.brokenInStores }) ??
        expectedToFail(playground, request) ??
        (await failsItsVariantTheSameWay(playground, request, base.choices, lines.slice(0, failedLines), metrics)))
      : undefined;
  const said = assumption === undefined ? {} : { assumption };
  return { ...base, outcome: verdict, ...said, lines, failedLines, metrics: outcome.metrics, events };
}

/**
 * A near-miss's failing schedule is its own mistake only if the correct variant it changes does
 * not fail the same schedule, at the same parameters, the same way: it passes, or it fails with
 * other figures (token-lua sends 2 e-mails when its lease runs out mid-job; token-lua-plain-del,
 * whose stale release frees the next holder's lock too, sends 3). A schedule that fails both alike
 * (an admin killed before its sale loses the sale in any variant) shows the schedule, not the
 * near-miss: in those words, it is kept apart as an assumption broken is, and the search goes on.
 * The correct variant plays the failing schedule's whole trace, so it meets the same choices at
 * the same decisions; where its code takes another path the scheduler's default goes on, as in
 * any replay.
 */
async function failsItsVariantTheSameWay(
  playground: Playground,
  request: Pick<ExploreRequest, 'scenario' | 'variant' | 'params' | 'mutants' | 'ownCode'>,
  choices: ScheduleChoice[],
  failed: string[],
  metrics: MetricSpec[],
): Promise<string | undefined> {
  const found = definitionsOf(playground, request);
  if (!found || request.ownCode) return undefined;
  const { scenario, variant } = found;
  if (!('of' in variant)) return undefined;
  const parent = scenario.variants.find((v) => v.id === variant.of);
  // A near-miss of a broken variant differs from it only at its declared set: nothing to compare.
  if (!parent?.correct) return undefined;
  const same = await play(playground, { scenario: request.scenario, variant: parent.id, params: request.params }, choices, metrics);
  const alsoFailed = new Set(same.outcome === 'fail' ? same.lines.slice(0, same.failedLines) : []);
  if (!failed.every((line) => alsoFailed.has(line))) return undefined;
  return `${parent.id}, the correct variant it changes, fails this schedule the same way${same.assumption ? ` (${same.assumption})` : ''}`;
}

function definitionsOf(playground: Playground, request: Pick<ExploreRequest, 'scenario' | 'variant' | 'mutants'>) {
  const scenario = playground.catalog.scenarios.get(request.scenario);
  const variant = scenario && findVariant(scenario, request.variant, { mutants: request.mutants === true });
  return scenario && variant ? { scenario, variant } : undefined;
}

const assumptionsFor = (playground: Playground, request: Pick<ExploreRequest, 'scenario' | 'variant' | 'mutants'>) => {
  const found = definitionsOf(playground, request);
  return found ? assumptionsOf(found.scenario, found.variant) : [];
};

/** A correct variant expected to fail at these parameters (a lease shorter than the work): why, in its own words. */
const expectedToFail = (
  playground: Playground,
  request: Pick<ExploreRequest, 'scenario' | 'variant' | 'mutants' | 'params'>,
): string | undefined => {
  const found = definitionsOf(playground, request);
  return (found?.variant.correct && found.variant.expectedOtherwise?.(request.params as Params)) || undefined;
};

/** The request's corners a schedule may start from: within the bound, and not refused by the variant. */
function cornersToTry(playground: Playground, request: ExploreRequest): Candidate[] {
  if (request.bound < 1) return [];
  const variant = definitionsOf(playground, request)?.variant;
  const rank = variant && 'of' in variant ? FAULT_RANK.nearMissCorner : FAULT_RANK.corner;
  return (request.corners ?? [])
    .filter((corner) => !variant?.refusedAt?.({ ...request.params, [corner.name]: corner.value } as Params))
    .map((corner) => ({ prefix: [], at: 0, key: cornerKey(corner), cost: 1, rank, corner }));
}

const cornerKey = (corner: ParamCorner | undefined): string => (corner ? `${corner.name}=${JSON.stringify(corner.value)}` : '');

const whyNotExplorable = (playground: Playground, request: ExploreRequest): string | undefined => {
  const found = definitionsOf(playground, request);
  return found && notExplorable(found.scenario, found.variant);
};

/**
 * The schedules that branch off a played one's trace, past its first `told` decisions (those
 * were its schedule's). Races: for each step, the last earlier step of another worker that
 * does not commute with it (conflicts.ts); the schedule that lets the later step's worker go
 * there instead and on to that step (or, when it was not waiting yet, each other waiting worker). Faults: a lease
 * runs out just before a step that names its key; a worker dies where it waits at a
 * store step or checkpoint.
 */
function branches(run: PlayedSchedule, told: number, request: ExploreRequest, corner?: ParamCorner): Candidate[] {
  const { trace } = run;
  const steps = trace.map(released);
  const costs = costsBefore(trace);
  const children: Candidate[] = [];
  const prefix = trace.map((d) => d.choice);
  const digests = prefixDigests(prefix);
  const add = (j: number, choice: ScheduleChoice, extra: number, rank: number = FAULT_RANK.none, ahead?: StepAt): void => {
    if (j < told) return;
    const key = `${cornerKey(corner)}|${digests[j]}|${JSON.stringify(choice)}|${ahead ? stepKey(ahead) : ''}`;
    const cost = costs[j]! + extra + (corner ? 1 : 0);
    children.push({ prefix, at: j, choice, key, cost, rank, ...(ahead ? { ahead } : {}), ...(corner ? { corner } : {}) });
  };
  const switchCost = (j: number, worker: string): number => {
    const last = j > 0 ? goingOn(trace[j - 1]!) : undefined;
    return last !== undefined && worker !== last && trace[j]!.waiting.some((w) => w.worker === last) ? 1 : 0;
  };
  // A killed worker's step never ran: nothing races it.
  const ran = (i: number): boolean => trace[i]!.choice.kill !== true;
  steps.forEach((later, k) => {
    if (!ran(k) || !onAStore(later.step)) return;
    let i = k - 1;
    while (i >= 0 && (!ran(i) || steps[i]!.worker === later.worker || !conflicts(steps[i]!.step, later.step))) i--;
    if (i < told || racedSooner(steps, i, k)) return;
    // A lease that ran out at decision i still runs out there, whoever goes.
    const { expire } = trace[i]!.choice;
    const fault = expire === undefined ? {} : { expire };
    const extra = expire === undefined ? 0 : 1;
    const waiting = trace[i]!.waiting;
    const there = waiting.find((w) => w.worker === later.worker);
    // Waiting further back on its way (a wait, a poll, a checkpoint), it goes ahead to that step.
    if (there && pollsAgain(steps, i, later.worker, there.step)) return;
    if (there)
      return add(
        i,
        { worker: later.worker, ...fault },
        switchCost(i, later.worker) + extra,
        FAULT_RANK.none,
        aheadTo(there.step, later.step),
      );
    for (const { worker } of waiting.filter((w) => w.worker !== steps[i]!.worker))
      add(i, { worker, ...fault }, switchCost(i, worker) + extra);
  });
  const nextOn = nextStepsOnKeys(steps);
  // Whether each worker's last store step so far changed a store (kept as the trace is walked).
  const wrote = new Map<string, boolean>();
  trace.forEach((decision, j) => {
    const { worker: went, step: sent } = steps[j]!;
    if (j >= told) branchAt(decision, j);
    if (ran(j) && (sent.kind === 'redis' || sent.kind === 'postgres')) wrote.set(went, writes(sent));
  });
  return children;

  function branchAt(decision: Decision, j: number): void {
    for (const { worker, step } of decision.waiting) {
      const leases = request.faults.expire ? decision.leases.filter((key) => keysOf(step).includes(key)) : [];
      for (const key of leases) {
        add(j, { worker, expire: key }, switchCost(j, worker) + 1, FAULT_RANK.expire);
        // Or the lease runs out and another worker gets to the key first, going ahead to each of
        // its next steps on it (a look, a take).
        for (const other of decision.waiting.filter((w) => w.worker !== worker))
          for (const step of nextOn(j, other.worker, key))
            add(j, { worker: other.worker, expire: key }, switchCost(j, other.worker) + 1, FAULT_RANK.expire, aheadTo(other.step, step));
      }
      // Killed at a pause is killed at its next step: only steps are places to die.
      if (request.faults.kill && step.kind !== 'yield')
        add(j, { worker, kill: true }, 1, wrote.get(worker) ? FAULT_RANK.killAfterWrite : FAULT_RANK.kill);
    }
  }
}

/** A step that reaches a store (a command, a statement, a lock's call): the only steps that race. */
const onAStore = (step: StepAt): boolean => step.kind === 'redis' || step.kind === 'postgres' || step.kind === 'lock';

/**
 * A worker let go where it waits at `from` goes ahead to step `to` when that is further on: on
 * through its own steps and pauses (which preempts nobody), so that the step it races reaches
 * the store first. Let go once, it would pause on the way and the default hand the turn back.
 */
const aheadTo = (from: StepAt, to: StepAt): StepAt | undefined => (stepKey(from) === stepKey(to) ? undefined : to);

/** How many of a worker's next steps on a key a lease's expiry sends it ahead to. */
const AHEAD_STEPS = 3;

/**
 * For a trace's steps: a worker's first distinct steps after decision j that name `key`, in the
 * trace's order. Indexed once per trace: a trace of thousands of decisions (forty jobs polling
 * one key) asks it at each, and a poll repeats the same step hundreds of times.
 */
function nextStepsOnKeys(steps: Array<{ worker: string; step: StepAt }>): (j: number, worker: string, key: string) => StepAt[] {
  const on = new Map<string, Array<{ index: number; words: string; step: StepAt }>>();
  steps.forEach(({ worker, step }, index) => {
    for (const key of keysOf(step)) {
      const list = on.get(`${worker}\n${key}`) ?? [];
      list.push({ index, words: stepKey(step), step });
      on.set(`${worker}\n${key}`, list);
    }
  });
  // Past each entry, the next whose step differs: a run of the same poll is crossed in one move.
  const skips = new Map<string, number[]>();
  for (const [name, list] of on) {
    const skip = new Array<number>(list.length).fill(list.length);
    for (let m = list.length - 2; m >= 0; m--) skip[m] = list[m + 1]!.words === list[m]!.words ? skip[m + 1]! : m + 1;
    skips.set(name, skip);
  }
  return (j, worker, key) => {
    const list = on.get(`${worker}\n${key}`) ?? [];
    const skip = skips.get(`${worker}\n${key}`) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.index <= j) lo = mid + 1;
      else hi = mid;
    }
    const found = new Map<string, StepAt>();
    for (let m = lo, hops = 0; m < list.length && found.size < AHEAD_STEPS && hops < 4 * AHEAD_STEPS; m = skip[m]!, hops++)
      found.set(list[m]!.words, list[m]!.step);
    return [...found.values()];
  };
}

/**
 * Step k's worker met step i sooner, at a step of its own that races it: that pair is the race,
 * and step k follows from it in the worker's own order. Reversing it would replay the sooner
 * pair's reversal, with the worker run on further along a path that may not be taken again.
 */
function racedSooner(steps: Array<{ worker: string; step: StepAt }>, i: number, k: number): boolean {
  const { worker } = steps[k]!;
  for (let j = i + 1; j < k; j++) if (steps[j]!.worker === worker && conflicts(steps[i]!.step, steps[j]!.step)) return true;
  return false;
}

/**
 * The worker, waiting at `step` at decision i, would only poll again there: it sent that very
 * step last, slept, and nothing of another worker that races it has come since. Let go now it
 * would see what its last poll saw, and the loop go round once more: the same schedule with one
 * more turn of the loop, and after it another, without end.
 */
function pollsAgain(steps: Array<{ worker: string; step: StepAt }>, i: number, worker: string, step: StepAt): boolean {
  let p = i - 1;
  let slept = false;
  for (; p >= 0; p--) {
    if (steps[p]!.worker !== worker) continue;
    const before = steps[p]!.step;
    if (before.kind === 'yield') slept ||= before.why === 'sleep';
    else if (before.kind !== 'checkpoint') break;
  }
  if (p < 0 || !slept || stepKey(steps[p]!.step) !== stepKey(step)) return false;
  for (let j = p + 1; j < i; j++) if (steps[j]!.worker !== worker && conflicts(steps[j]!.step, step)) return false;
  return true;
}

/** The step a decision let go, and whose. */
function released(decision: Decision): { worker: string; step: StepAt } {
  return decision.waiting.find((w) => w.worker === decision.choice.worker)!;
}

/**
 * A digest of each prefix of the choices (the first j, for every j), in one pass: two 32-bit
 * FNV-1a hashes side by side. A trace may hold thousands of decisions and give a branch at each;
 * hashing each branch's choices afresh would cost the square of that.
 */
function prefixDigests(choices: readonly ScheduleChoice[]): string[] {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const out = [''];
  for (const choice of choices) {
    for (const ch of `${JSON.stringify(choice)};`) {
      const code = ch.charCodeAt(0);
      a = Math.imul(a ^ code, 0x01000193) >>> 0;
      b = Math.imul(b ^ code, 0x5bd1e995) >>> 0;
    }
    out.push(`${a.toString(36)}.${b.toString(36)}`);
  }
  return out;
}

/** What the decisions before each one cost: its preemptions and faults. */
function costsBefore(trace: Decision[]): number[] {
  let cost = 0;
  return trace.map((decision) => {
    const before = cost;
    cost += (decision.preemption ? 1 : 0) + (decision.choice.expire !== undefined || decision.choice.kill ? 1 : 0);
    return before;
  });
}

/** The worker a decision let go, when it went on from a step that was not a pause: letting another go next preempts it. */
function goingOn(decision: Decision): string | undefined {
  const { worker, kill } = decision.choice;
  const step = decision.waiting.find((w) => w.worker === worker)?.step;
  return kill || step?.kind === 'yield' ? undefined : worker;
}

function outcomesOf(played: PlayedSchedule[]): Exploration['outcomes'] {
  const byFigures = new Map<string, Exploration['outcomes'][number]>();
  for (const p of played) {
    const figures = p.outcome === 'error' ? p.lines[0]! : JSON.stringify(Object.entries(p.metrics).sort());
    const known = byFigures.get(figures) ?? { outcome: p.outcome, figures, schedules: 0 };
    known.schedules++;
    byFigures.set(figures, known);
  }
  return [...byFigures.values()];
}
