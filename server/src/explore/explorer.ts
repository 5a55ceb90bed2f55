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
// apart, as that assumption broken, and the search goes on for a failure of the variant.
import { verdictLine, type MetricSpec, type Metrics, type RunEvent, type ScheduleChoice, type StepAt } from '@racelab/shared';
import type { OwnCode } from '../runs/ownCode.js';
import type { Playground } from '../runs/playground.js';
import { findVariant } from '../scenarios/registry.js';
import { EXPLORE_SPEED, StepScheduler, type Decision } from './stepScheduler.js';
import { assumptionsOf, brokenAssumption, notExplorable } from './assumptions.js';
import { conflicts, keysOf, writes } from './conflicts.js';

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
  cost: { preemptions: number; faults: number };
  outcome: 'pass' | 'fail' | 'error';
  /** A failing schedule of a correct variant that broke an assumption its verdict rests on: the assumption's words. */
  assumption?: string;
  /** The verdict's lines (the failed ones first), or the run's error. */
  lines: string[];
  metrics: Metrics;
  trace: Decision[];
  events: RunEvent[];
}

export interface Exploration {
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
  choices: ScheduleChoice[];
  cost: number;
  /** Its place among the schedules of the same cost (FAULT_RANK). */
  rank: number;
}

/**
 * At the same cost, a schedule without a fault first, then one whose lease runs out (the
 * lease's own failure), then one that kills a worker right after it changed a store (it
 * holds what it wrote: a lock without expiry, a half-done job), then any other kill.
 */
const FAULT_RANK = { none: 0, expire: 1, killAfterWrite: 2, kill: 3 } as const;

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
  const frontier: Candidate[] = [{ choices: [], cost: 0, rank: FAULT_RANK.none }];
  const seen = new Set<string>([JSON.stringify([])]);
  const played: PlayedSchedule[] = [];
  const playing = new Set<Promise<void>>();
  let launched = 0;
  let stopped = false;
  const mayStart = (): boolean => !stopped && frontier.length > 0 && launched < request.budget && Date.now() - started < request.timeMs;
  const start = (next: Candidate): void => {
    launched++;
    const going: Promise<void> = play(playground, request, next.choices, metrics).then((run) => {
      playing.delete(going);
      played.push(run);
      if (failsTheVariant(run) && request.firstFailure) stopped = true;
      for (const child of branches(run, next.choices.length, request)) {
        const key = JSON.stringify(child.choices);
        if (child.cost > request.bound || seen.has(key)) continue;
        seen.add(key);
        frontier.push(child);
      }
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

const cheapestFirst = (a: Candidate, b: Candidate): number => a.cost - b.cost || a.rank - b.rank || a.choices.length - b.choices.length;

/** The cheaper of two played schedules: fewer preemptions and faults, then fewer decisions. */
const smallestFirst = (a: PlayedSchedule, b: PlayedSchedule): number =>
  a.cost.preemptions + a.cost.faults - (b.cost.preemptions + b.cost.faults) || a.choices.length - b.choices.length;

/** Plays one schedule as a real run, to its verdict. */
export async function play(
  playground: Playground,
  request: Pick<ExploreRequest, 'scenario' | 'variant' | 'params' | 'mutants' | 'ownCode' | 'judge'>,
  choices: ScheduleChoice[],
  metrics: MetricSpec[],
): Promise<PlayedSchedule> {
  const scheduler = new StepScheduler(choices);
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
  const base = { choices: scheduler.trace.map((d) => d.choice), cost: costOf(choices, scheduler.trace), trace: scheduler.trace };
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
  const verdict = results.every((r) => r.held) ? 'pass' : 'fail';
  const assumption = verdict === 'fail' ? brokenAssumption(assumptionsFor(playground, request), { ...base, events }) : undefined;
  return { ...base, outcome: verdict, ...(assumption === undefined ? {} : { assumption }), lines, metrics: outcome.metrics, events };
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

const whyNotExplorable = (playground: Playground, request: ExploreRequest): string | undefined => {
  const found = definitionsOf(playground, request);
  return found && notExplorable(found.scenario, found.variant);
};

/**
 * The schedules that branch off a played one's trace, past its first `told` decisions (those
 * were its schedule's). Races: for each step, the last earlier step of another worker that
 * does not commute with it (conflicts.ts); the schedule that lets the later step's worker go
 * there instead (or, when it was not waiting yet, each other waiting worker). Faults: a lease
 * runs out just before a step that names its key; a worker dies where it waits at a
 * store step or checkpoint.
 */
function branches(run: PlayedSchedule, told: number, request: ExploreRequest): Candidate[] {
  const { trace } = run;
  const steps = trace.map(released);
  const costs = costsBefore(trace);
  const children: Candidate[] = [];
  const add = (j: number, choice: ScheduleChoice, extra: number, rank: number = FAULT_RANK.none): void => {
    if (j >= told) children.push({ choices: [...trace.slice(0, j).map((d) => d.choice), choice], cost: costs[j]! + extra, rank });
  };
  const switchCost = (j: number, worker: string): number => {
    const last = j > 0 ? goingOn(trace[j - 1]!) : undefined;
    return last !== undefined && worker !== last && trace[j]!.waiting.some((w) => w.worker === last) ? 1 : 0;
  };
  steps.forEach((later, k) => {
    let i = k - 1;
    while (i >= 0 && (steps[i]!.worker === later.worker || !conflicts(steps[i]!.step, later.step))) i--;
    if (i < 0) return;
    const waiting = trace[i]!.waiting.map((w) => w.worker);
    const instead = waiting.includes(later.worker) ? [later.worker] : waiting.filter((w) => w !== steps[i]!.worker);
    for (const worker of instead) add(i, { worker }, switchCost(i, worker));
  });
  trace.forEach((decision, j) => {
    for (const { worker, step } of decision.waiting) {
      const leases = request.faults.expire ? decision.leases.filter((key) => keysOf(step).includes(key)) : [];
      for (const key of leases) add(j, { worker, expire: key }, switchCost(j, worker) + 1, FAULT_RANK.expire);
      // Killed at a pause is killed at its next step: only steps are places to die.
      if (request.faults.kill && step.kind !== 'yield')
        add(j, { worker, kill: true }, 1, justWrote(steps.slice(0, j), worker) ? FAULT_RANK.killAfterWrite : FAULT_RANK.kill);
    }
  });
  return children;
}

/** The worker's last store step among these went to change a store: killed now, it leaves what it wrote. */
function justWrote(before: Array<{ worker: string; step: StepAt }>, worker: string): boolean {
  const last = before.filter((s) => s.worker === worker && (s.step.kind === 'redis' || s.step.kind === 'postgres')).at(-1);
  return last !== undefined && writes(last.step);
}

/** The step a decision let go, and whose. */
function released(decision: Decision): { worker: string; step: StepAt } {
  return decision.waiting.find((w) => w.worker === decision.choice.worker)!;
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
