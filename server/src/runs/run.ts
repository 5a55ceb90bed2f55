// One run of one scenario variant, as a life cycle: prepared → starting (its stores, its
// setup, its worker processes) → running → ending (measuring) → ended (the log's last
// event) → settled (cleaned up). One status field moves through runStatus's table; a
// cancel aborts the run's AbortSignal, which every awaited step of the start and the
// measuring races, and ends the log at once. The log (runLog.ts) is the only truth
// about a run; the worker processes are runProcesses.ts's.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import {
  judge,
  type ExpectedVerdict,
  type FaultRule,
  type LiveFaultAction,
  type Metrics,
  type Params,
  type RunEvent,
  type Verdict,
  type WorkerEventBody,
} from '@racelab/shared';
import { expectedOf, findVariant, type AnyScenario } from '../scenarios/registry.js';
import { variantForSetup, type RunFixture, type RunInfo, type ServiceEndpoint } from '../scenarios/types.js';
import type { RunCredentials, WorkerPlan, WorkerProcess } from '../worker/ipc.js';
import { AgentsUnavailable } from '../agents/agentListener.js';
import { abortable } from './abortable.js';
import { whileStoreFull } from './storeFull.js';
import { Coordinator } from './coordinator.js';
import { GroundTruth } from './groundTruth.js';
import type { KeyspaceEvents } from './keyspaceEvents.js';
import type { Redactor } from './redact.js';
import { RunLog, type EventBody } from './runLog.js';
import { RunProcesses } from './runProcesses.js';
import { isOver, transition, type RunStatus } from './runStatus.js';
import { createRunStores, type OwnedRunStores } from './runStores.js';
import type { StoreSilence } from './storeWatch.js';
import { settingOf, type Setting } from './runSetting.js';
import { Underway } from './runUnderway.js';
import { startRunLab, type RunLab } from './runLab.js';
import { LinkFaults } from './linkFaults.js';
import { NodeIsolation } from './nodeIsolation.js';
import { NodeSlowdowns } from './nodeSlowdowns.js';
import type { Slowdown } from '../labnet/delayRelay.js';
import type { SpareConnection } from './spareConnection.js';
import type { WorkerPool } from './workerPool.js';
import { storedKey } from '../scenarios/keyAliases.js';
import { credentialedUrls, type CredentialSupport } from './runCredentials.js';
import type { OwnCode, RunGiven } from './ownCode.js';
import type { StepScheduler } from '../explore/stepScheduler.js';
import { scheduledRun } from '../explore/scheduledRun.js';
import { assumptionsOf, brokenInStores } from '../explore/assumptions.js';

export interface RunRequest {
  scenario: AnyScenario;
  variantId: string;
  /** Already validated against the scenario's manifest. */
  params: Params;
  /** The fault plan; the variant's own when absent. */
  faults?: FaultRule[];
  /** Time scale: every duration of the run is divided by it. */
  speed?: number;
  /** Overrides the scenario's deadline, in ms (tests of the deadline; never from a page). */
  deadlineMs?: number;
  /** Code that is not racelab's (an exercise's edited variant): its variant, its own fresh workers, its module. */
  ownCode?: OwnCode;
  /** An explored run: this scheduler lets the workers past their scheduling points (explore/stepScheduler.ts). */
  scheduler?: StepScheduler;
}

export interface RunServices {
  pool: WorkerPool;
  redis: Redis;
  pg: pg.Pool;
  /** Redis's change notifications, when this Redis gives them. */
  keyspace?: KeyspaceEvents | null;
  /** For the run's own PostgreSQL connection; the pool's settings when absent. */
  databaseUrl?: string;
  /** The run's own PostgreSQL connection, made before the run when there is one ready. */
  spare?: SpareConnection;
  /** Runs going right now: a run is in it from start() until it has settled. */
  running?: Set<Run>;
  /** Hides connection strings and passwords in every text a page or the log gets. */
  redact?: Redactor;
  /** Which stores have gone silent (the playground's store watch): a clean-up does not wait for them. */
  silence?: StoreSilence;
  /** Which stores give each run users of its own (the playground's probe at its start); none when absent. */
  credentials?: CredentialSupport;
}

/** How long a run's cleanup (observers, fixture, keys and schema) may take before the run settles anyway, in ms. */
const CLEANUP_BUDGET_MS = 15_000;
/**
 * How long a run may take to start (its schema, its setup, its worker processes), in ms.
 * Forking is the slow part on a busy machine; the scenario's own deadline starts once the
 * workers have been handed out and covers the workers and the measuring.
 */
export const START_DEADLINE_MS = 60_000;

/**
 * The statement timeout of the run's own PostgreSQL connection, in ms: half the shorter of
 * the two deadlines its statements run under (the start's for setup, the run's for
 * observing and measuring), so a statement that hangs fails with its own words before a
 * deadline ends the run with vaguer ones. That connection carries only the scenario's
 * setup (DDL in a schema nobody else uses), the observers' reads and measure's reads:
 * milliseconds each, and none waits for a worker's lock (a plain SELECT never waits for
 * row locks in PostgreSQL). The waits a scenario is about — lost-update's SELECT … FOR
 * UPDATE, the advisory locks — happen on the workers' own connections, bounded by the
 * run's deadline. At the shortest deadline of any scenario (15 s) this is 7.5 s.
 */
export function runStatementTimeoutMs(deadlineMs: number): number {
  return Math.round(Math.min(deadlineMs, START_DEADLINE_MS) / 2);
}

/** A note in a worker's lane, written by the server (an explored run's fault, in words). */
const noteBody = (text: string): WorkerEventBody => ({ type: 'note', text });

/** Why a run was cancelled: the reason its AbortSignal carries. */
class Cancelled extends Error {}

export type RunOutcome =
  ({ status: 'finished'; metrics: Metrics; expected: ExpectedVerdict } & Verdict) | { status: 'failed'; message: string };

/** What the run's workers play on: made by the start before any worker is handed out. */
interface Stage {
  stores: OwnedRunStores;
  lab: RunLab | undefined;
  info: RunInfo;
  fixture: RunFixture;
}

/** The phases of a run's start, in order: its stores, its lab, the scenario's setup, its workers taken, played, measured, cleaned up. */
export type RunPhase = 'stores' | 'lab' | 'setup' | 'workers' | 'play' | 'measure' | 'cleanup';

export class Run {
  readonly id = randomBytes(5).toString('hex');
  /** Resolves once the run has ended and cleaned up after itself: workers gone, keys and schema dropped. */
  readonly settled: Promise<void>;
  /** Every status the run has been in, in order (the current one last). */
  readonly statuses: RunStatus[] = ['prepared'];
  /** How long each phase of start() took, in ms, in the order they ran (what `npm run bench` reports of a run's bookkeeping). */
  readonly phaseMs: Partial<Record<RunPhase, number>> = {};
  private resolveSettled!: () => void;
  private readonly log = new RunLog();
  private readonly processes = new RunProcesses({
    append: (workerId, body, atMs) => this.log.append(workerId, body, atMs),
    cancel: (reason) => this.cancel(reason),
    partition: (workerId, ms) => this.links.partition(workerId, ms),
    isolate: (node, onCut, ms) => this.isolation.isolate(node, onCut, ms),
    slow: (node, slowdown, onSlowed, ms) => this.slowdowns.slow(node, slowdown, onSlowed, ms),
    // Only while the run goes: a cancelled run's workers exit, whatever they offer.
    keep: (child) => !this.abort.signal.aborted && this.services.pool.keep(child),
  });
  private readonly links = new LinkFaults({
    staged: (workerId, fault) => this.log.append(workerId, { type: 'fault-staged', ...fault }),
    logLine: (line) => this.logLine(`run ${this.id}: ${line}`),
  });
  private readonly isolation = new NodeIsolation({
    staged: ({ workerId, ...fault }) => this.log.append(workerId ?? null, { type: 'fault-staged', ...fault }),
    logLine: (line) => this.logLine(`run ${this.id}: ${line}`),
  });
  private readonly slowdowns = new NodeSlowdowns({
    staged: ({ workerId, ...fault }) => this.log.append(workerId ?? null, { type: 'fault-staged', ...fault }),
    logLine: (line) => this.logLine(`run ${this.id}: ${line}`),
  });
  private readonly abort = new AbortController();
  /** What the start set going, cleaned up at the end whether or not the run waited for it. */
  private readonly underway: Underway;
  /** The deadline the run is under now: to start, then to end. */
  private deadline: NodeJS.Timeout | undefined;
  /** The run's own store users, once its stores are made. */
  private credentials: RunCredentials | undefined;

  constructor(
    private readonly request: RunRequest,
    private readonly services: RunServices,
  ) {
    this.settled = new Promise((resolve) => (this.resolveSettled = resolve));
    this.underway = new Underway(this.id, (line) => this.logLine(line), services.silence);
  }

  /** Where the run is in its life cycle. */
  get status(): RunStatus {
    return this.statuses.at(-1)!;
  }

  /** The run's log: every event so far, numbered. */
  get events(): RunEvent[] {
    return this.log.events;
  }

  /** The run's time zero on the host-wide monotonic clock (ns): every atMs counts from it. */
  get startedAtNs(): bigint {
    return this.log.startedAtNs;
  }

  /** True once the run has ended (its run-finished or run-failed is in the log), whatever its outcome. */
  get done(): boolean {
    return isOver(this.status);
  }

  /** True once the run has also cleaned up after itself. */
  get isSettled(): boolean {
    return this.status === 'settled';
  }

  /** The run's deadline once its workers are handed out, in ms, when one was set for it. */
  get deadlineMs(): number | undefined {
    return this.request.deadlineMs;
  }

  /** The run's workers, in the order its run-started names them. */
  get workerIds(): string[] {
    return this.request.scenario.workers(this.request.params);
  }

  /** Worker processes this run uses. */
  get workerCount(): number {
    return this.workerIds.length;
  }

  /**
   * The store URLs a process of this run connects with, the run's own users in them where the
   * stores gave it some: a worker started for the run alone (someone's own code) connects with
   * these and never as the server. Known once the run's stores are made (before its workers are
   * taken); throws before.
   */
  storeUrls(): { redisUrl: string; databaseUrl: string } {
    if (!this.credentials) throw new Error(`run ${this.id} has no stores yet`);
    return credentialedUrls(this.services.pool.storeUrls, this.credentials);
  }

  /** Planned stalls whose SIGCONT is still to come (none once the run's processes are killed). */
  get stallsPending(): number {
    return this.processes.stallsPending;
  }

  /** Subscribes to every event appended from now on; returns the unsubscribe. */
  onEvent(listener: (event: RunEvent) => void): () => void {
    return this.log.onEvent(listener);
  }

  /** Ends the run now: kills its workers and fails it with this reason; nothing once it has ended. */
  cancel(reason: string): void {
    if (this.done) return;
    // The first reason is the run's: what a cancel interrupts fails with it.
    if (!this.abort.signal.aborted) this.abort.abort(new Cancelled(reason));
    // Not started yet: start() fails it at once, with this reason.
    if (this.status === 'prepared') return;
    // The timeline says so at once; killing the workers and cleaning up follow (see `settled`).
    this.end({ type: 'run-failed', message: this.redact(this.cancelReason()!) });
    this.processes.killAll();
  }

  /**
   * A fault from the page on one worker's real process or its link, or on a lab node
   * (`isolate`, `rejoin`; `slow` with its `slowdown`, `restore`); returns an error when it cannot apply.
   */
  fault(workerId: string, action: LiveFaultAction, slowdown?: Slowdown): string | undefined {
    if (this.done) return 'the run has ended';
    // A page lays out the lanes as soon as the run is taken, before its workers are up.
    if (this.status === 'prepared' || this.status === 'starting') return 'the run is starting: its workers take faults once it runs';
    if (action === 'isolate' || action === 'rejoin') {
      if (this.status !== 'running') return `the run is ${this.status}: an ${action} applies while it runs`;
      return action === 'isolate' ? this.isolation.isolate(workerId) : this.isolation.rejoin(workerId);
    }
    if (action === 'slow' || action === 'restore') {
      if (this.status !== 'running') return `the run is ${this.status}: a ${action} applies while it runs`;
      if (action === 'restore') return this.slowdowns.restore(workerId);
      return slowdown ? this.slowdowns.slow(workerId, slowdown) : 'a slow names its latencyMs';
    }
    if (action !== 'partition' && action !== 'heal') return this.processes.fault(workerId, action);
    if (!this.workerIds.includes(workerId)) return `no worker '${workerId}' in this run`;
    if (this.status !== 'running') return `the run is ${this.status}: a partition applies while it runs`;
    return action === 'partition' ? this.links.partition(workerId) : this.links.heal(workerId);
  }

  /** Plays the run to its end and returns its outcome; never throws once started. */
  async start(): Promise<RunOutcome> {
    if (this.status !== 'prepared') throw new Error(`run ${this.id} was already started`);
    // A mutant only gets here from a test or the stability pass: the playground refuses it to a page.
    const variant = this.request.ownCode?.variant ?? findVariant(this.request.scenario, this.request.variantId, { mutants: true });
    if (!variant) throw new Error(`unknown variant ${this.request.variantId}`);
    this.move('starting');
    this.services.running?.add(this);
    const signal = this.abort.signal;
    // Every run ends: a deadline to start, then the scenario's deadline for its workers and measuring.
    this.deadlineIn(START_DEADLINE_MS, `the run could not start within ${START_DEADLINE_MS / 1000} s (the machine is too busy); try again`);
    try {
      signal.throwIfAborted(); // cancelled before it started
      const setting = settingOf(this.request, variant);
      const stores = await this.timed('stores', () => this.prepareStores(setting, signal));
      const lab = await this.timed('lab', () => this.startLab(setting, signal));
      const stage = await this.timed('setup', () => this.setUp(setting, stores, lab, signal));
      const children = await this.timed('workers', () => this.takeWorkers(setting, stage, signal));
      this.deadlineIn(setting.deadlineMs, `the run passed its deadline of ${setting.deadlineMs} ms; its workers were killed`);
      const coordinator = this.begin(setting, stage, signal);
      const truth = this.observe(setting, stage, coordinator);
      await this.timed('play', () => this.play(setting, stage, children, coordinator, signal));
      return await this.timed('measure', () => this.measure(setting, stage, truth, signal));
    } catch (error) {
      return this.failed(error);
    } finally {
      await this.timed('cleanup', () => this.wrapUp());
    }
  }

  /** Runs one phase of start(), its time kept in phaseMs. */
  private async timed<T>(phase: RunPhase, work: () => Promise<T>): Promise<T> {
    const from = performance.now();
    try {
      return await work();
    } finally {
      this.phaseMs[phase] = performance.now() - from;
    }
  }

  /** The run's own slice of the stores: its key prefix, its schema, its PostgreSQL connection. */
  private async prepareStores({ variant, deadlineMs }: Setting, signal: AbortSignal): Promise<OwnedRunStores> {
    // The spare on the first try only: a try that met a full PostgreSQL has closed it.
    let spare = this.services.spare?.take();
    const open = (): Promise<OwnedRunStores> => {
      const taken = spare;
      spare = undefined;
      return createRunStores(this.services.redis, this.services.pg, this.id, {
        databaseUrl: this.services.databaseUrl,
        spare: taken,
        statementTimeoutMs: runStatementTimeoutMs(deadlineMs),
        onLost: (error) => this.cancel(`PostgreSQL closed the run's connection: ${error.message}`),
        silence: this.services.silence,
        log: (line) => this.logLine(line),
        credentialSupport: this.services.credentials,
      });
    };
    this.underway.stores = whileStoreFull(open, signal, this.onceFull('its own connection'));
    const owned = await abortable(this.underway.stores, signal);
    this.credentials = owned.credentials;
    // A library variant's lock lives where the library puts it: the scenario reads it there.
    return { ...owned, key: (name: string) => owned.key(storedKey(variant.keyAliases, name)) };
  }

  /** The lab hosts of a scenario with network or clock faults; none for the others. */
  private async startLab({ needs, workerIds }: Setting, signal: AbortSignal): Promise<RunLab | undefined> {
    if (!needs) return undefined;
    this.underway.lab = startRunLab(workerIds, needs, this.services.pool.storeUrls, this.services.pool.labMechanisms);
    const lab = await abortable(this.underway.lab, signal);
    this.links.useHosts(lab.hosts, workerIds);
    return lab;
  }

  /** The scenario's setup in the run's stores, told the run's facts. */
  private async setUp(
    { variant, needs, timed }: Setting,
    stores: OwnedRunStores,
    lab: RunLab | undefined,
    signal: AbortSignal,
  ): Promise<Stage> {
    const info: RunInfo = {
      runId: this.id,
      date: new Date().toISOString().slice(0, 10),
      variant: variantForSetup(variant),
      ...(this.services.databaseUrl ? { databaseUrl: this.services.databaseUrl } : {}),
      ...(lab && Object.keys(lab.hosts).length > 0 ? { hosts: lab.hosts } : {}),
      // Looked at only for a run with a lab: the first look may build the wall clock shim.
      ...(needs ? { mechanisms: this.services.pool.labMechanisms } : {}),
    };
    this.underway.fixture = this.request.scenario.setup(stores, timed, info);
    const fixture = await abortable(this.underway.fixture, signal);
    return { stores, lab, info, fixture };
  }

  /** The run's worker processes from the pool (fresh ones when the lab wraps their start); the run owns them from here. */
  private async takeWorkers(setting: Setting, { lab, fixture }: Stage, signal: AbortSignal): Promise<WorkerProcess[]> {
    const { needs, workerIds } = setting;
    const { scenario } = this.request;
    const pool = this.services.pool;
    // Worker agents never run a lab's workers, nor those of a scenario that reaches this machine's own services.
    const placement = {
      onServer: needs ? `${scenario.id}'s lab is made on this server` : scenario.workersOnServer,
      lend: setting.keepsWorkers,
    };
    const take = (): Promise<WorkerProcess[]> =>
      this.request.ownCode
        ? this.startOwnWorkers(this.request.ownCode, workerIds, lab, {
            reaches: servicesReached(lab, fixture),
            folders: fixture.folders ?? [],
          })
        : lab?.launches.some((l) => l.wrap || l.env)
          ? pool.takeFresh(lab.launches, placement)
          : pool.take(workerIds.length, placement);
    const taken = whileStoreFull(take, signal, this.onceFull('its worker processes'));
    this.underway.children = taken.catch((error: unknown) => {
      if (error instanceof AgentsUnavailable) throw error;
      throw new Error(
        `could not start the run's worker processes (are Redis and PostgreSQL up?): ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    const children = await abortable(this.underway.children, signal);
    this.underway.adopted = true;
    return children;
  }

  /** Fresh workers for code that is not racelab's, each connecting as the run's own users (through its lab's relays where it has them). */
  private startOwnWorkers(code: OwnCode, workerIds: string[], lab: RunLab | undefined, given: RunGiven): Promise<WorkerProcess[]> {
    const base = this.services.pool.storeUrls;
    return code.startWorkers(
      workerIds.map((_, i) => {
        const { redisUrl, databaseUrl, ...launch } = lab?.launches[i] ?? {};
        const urls = credentialedUrls(
          { redisUrl: redisUrl ?? base.redisUrl, databaseUrl: databaseUrl ?? base.databaseUrl },
          this.credentials!,
        );
        return { ...launch, ...urls, ...given };
      }),
    );
  }

  /** The run is running: its clock started, its run-started and the faults staged in the log; returns its coordinator. */
  private begin({ variant, workerIds, faults, speed }: Setting, { lab, fixture, stores }: Stage, signal: AbortSignal): Coordinator {
    const { scheduler } = this.request;
    const coordinator = new Coordinator(workerIds, faults, scheduler);
    scheduler?.bind(
      workerIds,
      scheduledRun(
        { redis: this.services.redis, pg: this.services.pg, keyPrefix: stores.keyPrefix, schema: stores.schema },
        this.processes,
        (workerId, text) => this.log.append(workerId, noteBody(text)),
      ),
    );
    fixture?.lockHeld?.(({ key, token, remainingMs }) => this.log.append(null, { type: 'lock-held', key, token, pttlMs: remainingMs }));
    this.isolation.useCuts(fixture?.isolate ?? {}, (latch) => coordinator.signal(latch));
    this.slowdowns.useSlows(fixture?.slow ?? {}, (latch) => coordinator.signal(latch));
    this.log.startClock();
    signal.throwIfAborted();
    this.move('running');
    this.log.append(null, {
      type: 'run-started',
      scenario: this.request.scenario.id,
      variant: variant.id,
      correct: variant.correct,
      params: this.request.params,
      workers: workerIds,
      speed,
      faults: this.request.faults ?? variant.faults ?? [],
      hosts: this.links.partitionable,
      nodes: this.isolation.isolatable,
    });
    // The network and clock faults the lab arranged, each with the mechanism that plays it.
    for (const { workerId, ...fault } of [...(lab?.faults ?? []), ...(fixture?.faults ?? [])]) {
      this.log.append(workerId ?? null, { type: 'fault-staged', ...fault });
    }
    return coordinator;
  }

  /** The ground truth beside the workers' beliefs, observed while they run. */
  private observe({ variant, timed }: Setting, { stores, info, fixture }: Stage, coordinator: Coordinator): GroundTruth {
    return (this.underway.truth = new GroundTruth({
      scenario: this.request.scenario,
      keyAliases: variant.keyAliases,
      params: timed,
      info,
      stores,
      fixture,
      coordinator,
      redis: this.services.redis,
      keyspace: this.services.keyspace,
      append: (body) => this.log.append(null, body),
      cancel: (reason) => this.cancel(reason),
    }));
  }

  /** Hands each worker its plan and waits for every one of them to exit. */
  private async play(
    setting: Setting,
    { stores, lab, info, fixture }: Stage,
    children: WorkerProcess[],
    coordinator: Coordinator,
    signal: AbortSignal,
  ): Promise<void> {
    const { variant, workerIds, timed, faults } = setting;
    workerIds.forEach((workerId, i) => {
      const plan: WorkerPlan = {
        runId: this.id,
        workerId,
        workerIds,
        scenario: this.request.scenario.id,
        variant: variant.id,
        params: timed,
        date: info.date,
        runStartNs: this.log.startedAtNs.toString(),
        keyPrefix: stores.keyPrefix,
        schema: stores.schema,
        faults,
        shared: { ...lab?.shared, ...fixture?.shared },
        credentials: stores.credentials,
        ...(this.request.ownCode ? { editedModule: this.request.ownCode.moduleUrl } : {}),
        ...(this.request.scheduler ? { explore: true as const } : {}),
        // A worker on an agent's host is never kept: the agent counts its slots by process.
        ...(setting.keepsWorkers && children[i]!.host === undefined ? { keepWarm: true as const } : {}),
      };
      this.underway.exits.push(this.processes.drive(children[i]!, plan, coordinator));
    });
    // Cancelled while the workers were being wired: they go at once.
    if (signal.aborted) this.processes.killAll();
    await Promise.all(this.underway.exits);
  }

  /** Once every worker has exited: the observers' last samples, the scenario's measure and the verdict, the log's last event. */
  private async measure(
    { variant, timed }: Setting,
    { stores, info, fixture }: Stage,
    truth: GroundTruth,
    signal: AbortSignal,
  ): Promise<RunOutcome> {
    const { scenario, params } = this.request;
    signal.throwIfAborted();
    this.move('ending');
    await abortable(truth.stop(), signal);
    await abortable(truth.recorded, signal); // the key observer's last sample included
    const metrics = await abortable(scenario.measure(stores, timed, info, fixture), signal);
    const { scheduler } = this.request;
    if (scheduler) scheduler.brokenInStores = await abortable(brokenInStores(assumptionsOf(scenario, variant), stores), signal);
    signal.throwIfAborted();
    const verdict = judge(scenario.expectations(params), metrics);
    const expected = expectedOf(variant, params);
    this.end({
      type: 'run-finished',
      metrics,
      expectations: verdict.results,
      verdict: verdict.verdict,
      expectedVerdict: expected.verdict,
      ...(expected.reason ? { expectedReason: expected.reason } : {}),
    });
    return { status: 'finished', metrics, expected, ...verdict };
  }

  /** A failed run's outcome: a cancelled run fails with the reason it was cancelled for, not with whatever that interrupted. */
  private failed(error: unknown): RunOutcome {
    const message = this.redact(this.cancelReason() ?? (error instanceof Error ? error.message : String(error)));
    if (!this.done) this.end({ type: 'run-failed', message });
    return { status: 'failed', message };
  }

  /** After the end, however it came: faults lifted, processes killed, what the start set going cleaned up, then settled. */
  private async wrapUp(): Promise<void> {
    clearTimeout(this.deadline);
    this.links.end();
    this.isolation.end();
    this.slowdowns.end();
    this.request.scheduler?.stop();
    this.processes.killAll();
    await this.underway.cleanUpWithin(CLEANUP_BUDGET_MS);
    this.settle();
  }

  /** Cancels the run in `ms` with this reason, instead of when the deadline before said. */
  private deadlineIn(ms: number, reason: string): void {
    clearTimeout(this.deadline);
    this.deadline = setTimeout(() => this.cancel(reason), ms);
  }

  /** Moves the run to its next status; throws on a move the life cycle does not have. */
  private move(to: RunStatus): void {
    this.statuses.push(transition(this.status, to));
  }

  /** Appends the log's last event and moves to ended. */
  private end(last: Extract<EventBody, { type: 'run-finished' | 'run-failed' }>): void {
    this.move('ended');
    this.log.end(last);
  }

  private cancelReason(): string | undefined {
    return this.abort.signal.aborted ? (this.abort.signal.reason as Cancelled).message : undefined;
  }

  /** The run and its clean-up are over. */
  private settle(): void {
    this.log.stopListening();
    // An ended run is kept a while for pages that reconnect: keep its log, not its processes.
    this.processes.forget();
    this.services.running?.delete(this);
    this.move('settled');
    this.resolveSettled();
    // The pool forks what it handed out and the next run's connection is made (never during
    // a run), once whoever awaited this run has been told (a fork blocks for milliseconds).
    setImmediate(() => {
      this.services.pool.replenish();
      this.services.spare?.refill();
    });
  }

  /** Says once in the log that PostgreSQL had no connection free for `what`, and that the run waits for one. */
  private onceFull(what: string): (error: unknown) => void {
    let said = false;
    return () => {
      if (said) return;
      said = true;
      this.logLine(`run ${this.id}: PostgreSQL has no connection free for ${what} (max_connections reached); waiting for one`);
    };
  }

  private logLine(line: string): void {
    console.error(`racelab: ${this.redact(line)}`);
  }

  private redact(text: string): string {
    return this.services.redact ? this.services.redact(text) : text;
  }
}

/** The lab's and the setup's services a run's workers connect to: what they name, and every URL the workers are handed. */
function servicesReached(lab: RunLab | undefined, fixture: RunFixture): ServiceEndpoint[] {
  const urls = Object.values({ ...lab?.shared, ...fixture.shared }).flatMap((value) => {
    if (typeof value !== 'string' || !/^[a-z][a-z+]*:\/\//.test(value)) return [];
    try {
      const url = new URL(value);
      return url.port ? [{ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) }] : [];
    } catch {
      return [];
    }
  });
  return [...(fixture.reaches ?? []), ...urls];
}
