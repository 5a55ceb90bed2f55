// What a scenario folder provides. The registry turns it into the manifest the page
// renders; workers call `work`; the run calls `setup`, `measure` and `expectations`.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type {
  RunEvent,
  ScheduleChoice,
  StepAt,
  Expectation,
  FaultRule,
  MetricSpec,
  Metrics,
  Params,
  ParamSpec,
  WorkerEventBody,
  StagedFault,
  WildSource,
} from '@racelab/shared';
import type { Slowdown } from '../labnet/delayRelay.js';
import type { LabHost } from '../labnet/labHost.js';
import type { LabMechanisms } from '../labnet/mechanisms.js';

/** A schedule the explorer played, as an assumption reads it: its decisions in order, and the run's log. */
export interface PlayedFacts {
  choices: ScheduleChoice[];
  /** Each decision: who waited where, and what went. */
  trace: Array<{ waiting: Array<{ worker: string; step: StepAt }>; choice: ScheduleChoice }>;
  events: RunEvent[];
  /** The assumptions the stores showed broken at the run's end (Assumption.brokenInStores). */
  brokenInStores?: Assumption[];
}

/**
 * Something a correct variant's verdict rests on that the choreography stages and an explored
 * schedule may break ("the containers arrive together"): a failing schedule that broke it is
 * no failure of the variant (explore/assumptions.ts).
 */
export interface Assumption {
  /** What is assumed, in words: "the lease outlasts the work". */
  words: string;
  /** Whether this played schedule broke it, read from its decisions and the run's log. */
  brokenBy?(played: PlayedFacts): boolean;
  /**
   * Whether the stores show it broken, read at the end of an explored run before they are
   * dropped: the order of acts as the stores timed them, where the workers' words may come late.
   */
  brokenInStores?(stores: RunStores): Promise<boolean>;
}

/** What a variant's code gets inside its worker process. */
export interface WorkerContext {
  runId: string;
  workerId: string;
  workerIds: string[];
  params: Params;
  /** The run's date (UTC, YYYY-MM-DD), the same in every process of the run. */
  date: string;
  /** Values the scenario's setup shares with every worker, e.g. a provider's URL. */
  shared: Record<string, string | number>;
  /** This process's own Redis connection. */
  redis: Redis;
  /** This process's own PostgreSQL connection; its search_path is the run's schema. */
  pg: pg.Client;
  /** The run's Redis key for a name: every key of a run lives under its prefix. */
  key(name: string): string;
  /** The one way a worker reports: stamps worker id and the host-wide clock. */
  emit(event: WorkerEventBody): void;
  /** Now on the run's clock (ms since its start), the time every event is stamped with. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Sets a named latch of the run; every wait on it is released. */
  signal(name: string): void;
  /** Resolves once any of the named latches is set (by a worker or by the server). */
  waitFor(...names: string[]): Promise<string>;
  /** Resolves once every live worker of the run has reached the barrier. */
  barrier(name: string): Promise<void>;
  /** A named step where the run's fault plan may stall (SIGSTOP) or kill (SIGKILL) this process. */
  checkpoint(name: string): Promise<void>;
  /** Has the server stop this process for real (SIGSTOP) for `ms`, then continue it (SIGCONT). */
  stall(ms: number): Promise<void>;
  /** Has the server kill this process for real (SIGKILL); never returns. */
  die(): Promise<never>;
  /**
   * An explored run's scheduling point (worker/scheduledStores.ts): resolves when the schedule
   * lets this worker past `step`. Absent in any other run. A lock module's adapter waits here
   * before each call (locks/openLock.ts).
   */
  scheduled?(step: StepAt): Promise<void>;
}

/** What the server saw a watched key hold, read from its own Redis connection. */
export interface KeyObserved {
  /** The key's name, without the run's prefix. */
  key: string;
  value: string | null;
  /**
   * Redis's clock (TIME, µs since the epoch) when it read the value, in the same atomic
   * step; absent when a notification reported the key gone. The host's wall clock.
   */
  redisTimeUs?: number;
}

/** What stores hold, by store name and then by lane name (see `Scenario.observe`). */
export type Observed = Record<string, Record<string, string | null>>;

/** A lab node cut from every worker: the faults as played (one per worker, each with its mechanism), and how to undo the cut. */
export interface NodeCutMade {
  faults: StagedFault[];
  /** Lets the node reach every worker again; resolves with the rejoins as played, one per worker. */
  rejoin(): Promise<StagedFault[]>;
}

/** Cuts one lab node from every worker, until its rejoin or the run's end; leaves nothing cut when it fails. */
export type NodeCut = () => Promise<NodeCutMade>;

/** A lab node slowed for every worker: the slowdowns as played (one per worker, each with its mechanism), and how to undo them. */
export interface NodeSlowMade {
  faults: StagedFault[];
  /** Brings the node back to full speed for every worker; resolves with the restores as played, one per worker. */
  restore(): Promise<StagedFault[]>;
}

/** Slows one lab node for every worker, until its restore or the run's end; leaves nothing slowed when it fails. */
export type NodeSlow = (slowdown: Slowdown) => Promise<NodeSlowMade>;

/** One address and port a run's worker connects to. */
export interface ServiceEndpoint {
  host: string;
  port: number;
}

/** What a scenario's setup starts for one run beside the stores, e.g. a token provider. */
export interface RunFixture {
  /** Values every worker of the run receives as `ctx.shared`. */
  shared?: Record<string, string | number>;
  /**
   * The setup's services a worker connects to, beside the stores: a token provider, a Sentinel
   * and the nodes it names. Edited code's network rule lets its workers reach these and no more
   * (a URL in `shared` counts too, so only what a worker learns otherwise needs naming here).
   */
  reaches?: ServiceEndpoint[];
  /** Folders the setup made for the run's workers to write in (unfenceable-target's uploads): edited code's workers may too, and no others but their scratch. */
  folders?: string[];
  /** The network and clock faults the setup arranged, each with the mechanism that plays it (logged as `fault-staged`). */
  faults?: StagedFault[];
  /** The lab nodes a live or planned isolate may cut (and a rejoin link again), by name (redlock's "node-1" … "node-5"). */
  isolate?: Record<string, NodeCut>;
  /** The lab nodes a live or planned slow may slow (and a restore bring back to full speed), by name. */
  slow?: Record<string, NodeSlow>;
  /**
   * Where the lock lives on the lab's own nodes, out of the key observer's sight: the run
   * hands a listener that is told each time enough of them come to hold a token, and each
   * time they hold it longer (logged as `lock-held`).
   */
  lockHeld?(listener: (held: LockHeld) => void): void;
  /** Stops whatever setup started; called once the run has been measured. */
  close?(): Promise<void>;
}

/** A lock on a lab's own nodes: `token` is held by as many of them as it needs (under `key`, as they name it) for remainingMs more. */
export interface LockHeld {
  key: string;
  token: string;
  remainingMs: number;
}

/** The server's access to one run's slice of the stores. */
export interface RunStores {
  redis: Redis;
  /** The run's Redis key for a name. */
  key(name: string): string;
  /** Runs SQL with the run's schema as search_path. */
  sql<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** Facts of a run that the server and its workers share. */
export interface RunInfo {
  /** The run's id ([a-f0-9] only): names what a run owns outside the stores. */
  runId: string;
  /** The run's date (UTC, YYYY-MM-DD). */
  date: string;
  /**
   * The variant the run plays, by id, so that `setup` can make the tables that variant needs
   * (a correct variant's unique constraint); a near-miss gets the id of the variant it mutates.
   */
  variant: string;
  /** Each worker's lab host by worker id, and each lab node's by its name, when the run's lab has hosts (see `lab`). */
  hosts?: Record<string, LabHost>;
  /** The PostgreSQL the run's workers connect to, with the server's user: for a setup that starts a service in front of it (a pooler). */
  databaseUrl?: string;
  /** What the machine gives this run's lab (the playground's: its tests may force the imitations); absent: labMechanisms(). */
  mechanisms?: LabMechanisms;
}

/** What a run's workers need of the machine, for a scenario with network or clock faults (../labnet/). */
export interface LabNeeds {
  /** Each worker runs as a host of its own (a network namespace, a link to the host) where the machine allows. */
  network: boolean;
  /** Each worker's wall clock against the host's, in ms (negative: behind), in worker order: moved by libfaketime where installed. */
  clockOffsetsMs?: number[];
  /**
   * Lab nodes (not workers) that run as hosts of their own, by name, where the machine has
   * namespaces and nftables: the scenario starts its node inside and cuts one direction of
   * one connection with `dropFrom` (a link down would cut every connection of the node).
   */
  nodes?: string[];
}

export interface VariantDefinition<Job> {
  id: string;
  title: string;
  correct: boolean;
  summary: string;
  /**
   * What a run at the defaults gives, in a line, as the README's scenario table shows it
   * ("e-mails sent 3 (should be 1)"): measured, so written here beside the code that gives it.
   * Every variant of a scenario folder has one (`scenarioTable.test.ts`); a mutant has none.
   */
  figures?: string;
  /** The variant module's own URL (import.meta.url): its source is shown on the page. */
  source: string;
  defaults?: Params;
  faults?: FaultRule[];
  /**
   * Why the server's Redis cannot run this variant (a command it lacks), saying what it needs
   * and what the server is; null: it can. Asked once when the server opens; the catalogue
   * still lists the variant, marked unavailable with the reason, and every run of it (or of
   * its near-misses) is refused with that reason: never imitated.
   */
  unavailable?(redis: Redis): Promise<string | null>;
  /** The npm library this variant runs, at its pinned version (../locks/): a library variant. */
  library?: { name: string; version: string };
  /**
   * Where this variant's lock really lives, for a library that names its key its own way:
   * the scenario's key name → the stored one (both without the run's prefix). The run
   * watches and measures the stored key under the scenario's name.
   */
  keyAliases?: Record<string, string>;
  checkpoints?: string[];
  /**
   * Does the variant's lease renew itself while its holder runs (a watchdog)? A stall of the
   * holder then only has to end inside the lease, not its work too (kit/leaseEdge.ts).
   */
  renewsLease?: boolean;
  /**
   * Parameters at which this variant's verdict would be luck, not its code's (a lock that
   * renews with too little of its lease left): why, in a sentence that says what to use
   * instead. The run is refused there. Absent or null: it runs.
   */
  refusedAt?(params: Params): string | null;
  /**
   * Where this variant is expected to give the other verdict than its kind's (a correct
   * variant whose assumption breaks, e.g. a lease shorter than the work; a broken one with
   * no race to lose, e.g. one worker): the reason in one line. null: its kind's verdict.
   */
  expectedOtherwise?(params: Params): string | null;
  /** What this correct variant's verdict rests on, beside its scenario's `assumptions`, that an explored schedule may break. */
  assumptions?: Assumption[];
  /** Why the explorer cannot search this variant's schedules (work it does out of the scheduler's sight); absent: it can. */
  notExplorable?: string;
  run(job: Job): Promise<void>;
}

/**
 * A near-miss of a variant: the same code with one classic mistake. Never on the page; the
 * test suite runs each at `failsAt` and holds it to a red verdict there, where the variant
 * it mutates is expected to pass and does.
 */
export interface MutantDefinition<Job> extends VariantDefinition<Job> {
  /** The variant this one almost is: a correct one, or a broken one that passes at `failsAt`. */
  of: string;
  /** The mistake in one line, e.g. "releases with a plain DEL, not compare-and-delete". */
  mistake: string;
  /** One of the scenario's declared parameter sets ({} for the defaults) where the mistake shows. */
  failsAt: Params;
}

export interface ScenarioDefinition<Job = never, Fixture extends RunFixture = RunFixture> {
  id: string;
  title: string;
  summary: string;
  /** The scenario module's own URL (import.meta.url): explanation.md sits beside it. */
  source: string;
  /** Where the catalogue lists it: 1 first. The basics first, then the trade-offs and traps. */
  teachingOrder: number;
  /**
   * Public sources where this mistake happened or was analysed (the folder's sources.ts):
   * every scenario of racelab's own has two at least (seenInTheWild.test.ts).
   */
  seenInTheWild?: WildSource[];
  params: ParamSpec[];
  metrics: MetricSpec[];
  variants: VariantDefinition<Job>[];
  /** Near-misses of the correct variants, for the test suite (see MutantDefinition). */
  mutants?: MutantDefinition<Job>[];
  /** Worker ids of a run with these parameters. */
  workers(params: Params): string[];
  /**
   * Why this machine cannot run the scenario (a program it needs is not installed), saying what
   * to install; null or absent: it can. The catalogue still lists it, marked unavailable with
   * the reason, and every run of it is refused with that reason: never imitated.
   */
  unavailable?(): string | null;
  /** What the workers need of the machine; absent: warm pooled processes, as every other scenario. */
  lab?(params: Params): LabNeeds;
  /**
   * Why its workers must be processes of the server's own machine, when they must: they reach
   * something only that machine has (a service on its loopback, a folder on its disk). Worker
   * agents on other hosts never run them; a scenario with a `lab` is such a one already.
   */
  workersOnServer?: string;
  /**
   * Why its worker processes must serve one run each, when they must: its workers run an npm
   * library of their own (a job queue, a scheduler) or change the process (its Date), state
   * racelab does not own. A run's workers otherwise go back to the pool for the next run (or
   * schedule) when nothing struck them (runs/runSetting.ts, keepsWorkers).
   */
  workersServeOneRun?: string;
  /** Redis keys (names, without the run prefix) whose contents the timeline shows. */
  watchedKeys(params: Params, run: RunInfo): string[];
  /** Longest a healthy run may take, in ms; past it the run is failed and its workers killed. */
  deadlineMs(params: Params): number;
  /** Creates the run's tables in its schema and starts what else the run needs; `run.variant` names the variant it plays. */
  setup(stores: RunStores, params: Params, run: RunInfo): Promise<Fixture>;
  /** Reads the verdict's numbers from the stores: ground truth, not what workers said. */
  measure(stores: RunStores, params: Params, run: RunInfo, fixture: Fixture): Promise<Metrics>;
  /**
   * What the stores hold right now for the timeline's truth lanes, by store and then by
   * name: `{ [POSTGRES_STORE]: { document: 'worker-2 · fence 2' } }`; a scenario's own lab names
   * its parts (`{ 'Redis node': { primary: 'dead (SIGKILL)' } }`). null: no row, no value.
   */
  observe?(stores: RunStores, fixture: Fixture): Promise<Observed>;
  /**
   * Server side: every change of a watched key the server observes (`before`: the previous
   * one), one at a time and in order, all of them done before `measure`; evidence the
   * workers cannot skip, e.g. each new holder of a lease is a grant. Once it is done for a
   * value, the run sets the latch `key-seen:<key>=<value>`.
   */
  onKeyObserved?(stores: RunStores, now: KeyObserved, before: KeyObserved | undefined): Promise<void>;
  /** What the numbers should be for these parameters. */
  expectations(params: Params): Expectation[];
  /**
   * Ids of expectations that hold only in the order the choreography stages (who writes
   * last, say): an explored run, whose order the schedule decides, is judged without them.
   */
  stagedExpectations?: string[];
  /**
   * What the verdicts of the scenario's correct variants rest on, that the choreography stages
   * and an explored schedule may break: such a failing schedule is reported as the assumption
   * broken, not as a failure of the variant.
   */
  assumptions?: Assumption[];
  /** Why the explorer cannot search this scenario's schedules (work on connections the scheduler does not see); absent: it can. */
  notExplorable?: string;
  /** Worker side: plays this worker's part with the chosen variant. */
  work(ctx: WorkerContext, variant: VariantDefinition<Job>): Promise<void>;
  /**
   * Parameter sets besides the defaults (two, by convention) at which `npm run stability`
   * runs every variant, each over the variant's own defaults: a verdict must come out the
   * same run after run at these too. Values as the manifest takes them; the script
   * validates them like any caller's.
   */
  stabilityParams?: Params[];
  /** The scenario as an exercise: the broken variant a learner starts from, and how they are led to a fix. */
  exercise?: ExerciseDefinition;
}

/**
 * A scenario as an exercise (the folder's exercise.ts). The learner edits the `from` variant's
 * code; it is graded at the defaults and at each declared set (stabilityParams) where the
 * `solution` variant is expected to pass, with the parameters that variant runs at there.
 */
export interface ExerciseDefinition {
  /** The broken variant whose code the editor starts from (its id). */
  from: string;
  /** The correct variant shown, only on request, as the reference solution (its id). */
  solution: string;
  /** In order: the idea, the Redis or SQL primitive, the shape of the code. */
  hints: [string, string] | [string, string, string];
  /**
   * Why each declared set is graded, one line for each of stabilityParams in order, said when
   * the fix fails there: "worker-1's fetch outlasts its lease and fails, after worker-2 took the lock".
   */
  setReasons: string[];
}

/** Identity function that gives a scenario definition its types. */
export function defineScenario<Job, Fixture extends RunFixture = RunFixture>(
  definition: ScenarioDefinition<Job, Fixture>,
): ScenarioDefinition<Job, Fixture> {
  return definition;
}

/** Identity function that gives a mutant definition its types. */
export function defineMutant<Job>(definition: Omit<MutantDefinition<Job>, 'correct'>): MutantDefinition<Job> {
  return { ...definition, correct: false };
}

/** Identity function that gives a variant definition its types. */
export function defineVariant<Job>(definition: VariantDefinition<Job>): VariantDefinition<Job> {
  return definition;
}

/**
 * A variant told as named steps: `run` is handed `steps`, so that a mutant can be the same
 * variant with one step replaced (mutantOf), and the mutant's file shows only its mistake.
 */
export interface SteppedVariant<Job, Steps> extends VariantDefinition<Job> {
  steps: Steps;
  run(job: Job, steps?: Steps): Promise<void>;
}

/** Gives a variant told as named steps its types; its `run` plays its own steps. */
export function defineSteppedVariant<Job, Steps>(
  definition: Omit<VariantDefinition<Job>, 'run'> & { steps: Steps; run(job: Job, steps: Steps): Promise<void> },
): SteppedVariant<Job, Steps> {
  return { ...definition, run: (job, steps = definition.steps) => definition.run(job, steps) };
}

/** What a mutant says of itself when it is its variant with some steps replaced. */
export type MutantSteps<Job, Steps> = Omit<MutantDefinition<Job>, 'correct' | 'of' | 'run' | 'figures' | 'expectedOtherwise'> & {
  steps: Partial<Steps>;
};

/**
 * A near-miss written as the variant it mutates with `mutant.steps` in place of the
 * variant's own: same run, same checkpoints, defaults and faults unless the mutant says
 * otherwise, no figures and no excuses (a mutant is expected to fail).
 */
export function mutantOf<Job, Steps>(
  variant: SteppedVariant<Job, Steps>,
  mutant: MutantSteps<Job, Steps>,
): MutantDefinition<Job> & { steps: Steps } {
  const { steps: replaced, ...own } = mutant;
  const steps = { ...variant.steps, ...replaced };
  return {
    checkpoints: variant.checkpoints,
    renewsLease: variant.renewsLease,
    unavailable: variant.unavailable,
    notExplorable: variant.notExplorable,
    defaults: variant.defaults,
    faults: variant.faults,
    ...own,
    of: variant.id,
    correct: false,
    steps,
    run: (job) => variant.run(job, steps),
  };
}

/** The variant whose tables a run of this one gets (RunInfo.variant): a mutant's is the variant it mutates. */
export function variantForSetup(variant: VariantDefinition<unknown> | MutantDefinition<unknown>): string {
  return 'of' in variant ? variant.of : variant.id;
}

/** A number parameter, already validated by the manifest's bounds. */
export function intParam(params: Params, name: string): number {
  const value = params[name];
  if (typeof value !== 'number') throw new Error(`parameter '${name}' is not a number`);
  return value;
}

/** A choice parameter, already validated by the manifest's options. */
export function choiceParam(params: Params, name: string): string {
  const value = params[name];
  if (typeof value !== 'string') throw new Error(`parameter '${name}' is not a choice`);
  return value;
}
