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
} from '@racelab/shared';
import { expectedOf, findVariant, type AnyScenario } from '../scenarios/registry.js';
import { variantForSetup, type RunFixture } from '../scenarios/types.js';
import type { WorkerPlan, WorkerProcess } from '../worker/ipc.js';
import { AgentsUnavailable } from '../agents/agentListener.js';
import { abortable } from './abortable.js';
import { Coordinator } from './coordinator.js';
import { KeyObserver } from './keyObserver.js';
import type { KeyspaceEvents } from './keyspaceEvents.js';
import { RowObserver } from './rowObserver.js';
import type { Redactor } from './redact.js';
import { RunLog, type EventBody } from './runLog.js';
import { killAndWait, RunProcesses } from './runProcesses.js';
import { isOver, transition, type RunStatus } from './runStatus.js';
import { cleanUpOnSilence, createRunStores, type OwnedRunStores } from './runStores.js';
import type { StoreSilence } from './storeWatch.js';
import { startRunLab, type RunLab } from './runLab.js';
import { LinkFaults } from './linkFaults.js';
import { NodeIsolation } from './nodeIsolation.js';
import { NodeSlowdowns } from './nodeSlowdowns.js';
import type { Slowdown } from '../labnet/delayRelay.js';
import type { SpareConnection } from './spareConnection.js';
import { scaleDurations, scaleFaults } from './runSpeed.js';
import type { WorkerPool } from './workerPool.js';
import { keyGoneLatch, keySeenLatch } from '../worker/latches.js';
import { scenarioKey, storedKey } from '../scenarios/keyAliases.js';

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
}

/** An error PostgreSQL itself replied with (pg's DatabaseError: a SQLSTATE code and a severity). */
function fromPostgres(error: Error): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
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

/** Why a run was cancelled: the reason its AbortSignal carries. */
class Cancelled extends Error {}

export type RunOutcome =
  ({ status: 'finished'; metrics: Metrics; expected: ExpectedVerdict } & Verdict) | { status: 'failed'; message: string };

/** What a run's start set going: cleaned up at the end, whether or not the run waited for it. */
interface Underway {
  stores?: Promise<OwnedRunStores>;
  /** The lab hosts of a scenario with network or clock faults (runLab.ts). */
  lab?: Promise<RunLab>;
  fixture?: Promise<RunFixture>;
  /** The pool's processes, until the run adopts them (from then on `RunProcesses` kills them). */
  children?: Promise<WorkerProcess[]>;
  adopted: boolean;
  exits: Promise<void>[];
  observers: Array<{ stop(): Promise<void> }>;
  /** The scenario's records of what the key observer saw (`onKeyObserved`), in order; rejects on the first failure. */
  keysRecorded: Promise<void>;
}

export class Run {
  readonly id = randomBytes(5).toString('hex');
  /** Resolves once the run has ended and cleaned up after itself: workers gone, keys and schema dropped. */
  readonly settled: Promise<void>;
  /** Every status the run has been in, in order (the current one last). */
  readonly statuses: RunStatus[] = ['prepared'];
  private resolveSettled!: () => void;
  private readonly log = new RunLog();
  private readonly processes = new RunProcesses({
    append: (workerId, body, atMs) => this.log.append(workerId, body, atMs),
    cancel: (reason) => this.cancel(reason),
    partition: (workerId, ms) => this.links.partition(workerId, ms),
    isolate: (node, onCut, ms) => this.isolation.isolate(node, onCut, ms),
    slow: (node, slowdown, onSlowed, ms) => this.slowdowns.slow(node, slowdown, onSlowed, ms),
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

  constructor(
    private readonly request: RunRequest,
    private readonly services: RunServices,
  ) {
    this.settled = new Promise((resolve) => (this.resolveSettled = resolve));
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
    const { scenario, variantId, params } = this.request;
    // A mutant only gets here from a test or the stability pass: the playground refuses it to a page.
    const variant = findVariant(scenario, variantId, { mutants: true });
    if (!variant) throw new Error(`unknown variant ${variantId}`);
    this.move('starting');
    this.services.running?.add(this);
    const signal = this.abort.signal;
    const underway: Underway = { adopted: false, exits: [], observers: [], keysRecorded: Promise.resolve() };
    // Every run ends: a deadline to start, then the scenario's deadline for its workers and measuring.
    let deadline = setTimeout(
      () => this.cancel(`the run could not start within ${START_DEADLINE_MS / 1000} s (the machine is too busy); try again`),
      START_DEADLINE_MS,
    );
    try {
      signal.throwIfAborted(); // cancelled before it started
      const speed = this.request.speed ?? 1;
      // Workers, stores and the deadline see the scaled durations; the verdict's expectations the chosen ones.
      const timed = scaleDurations(scenario.params, params, speed);
      const faults = scaleFaults(this.request.faults ?? variant.faults ?? [], speed);
      const workerIds = this.workerIds;
      const needs = scenario.lab?.(timed);
      const deadlineMs = this.request.deadlineMs ?? scenario.deadlineMs(timed);

      underway.stores = createRunStores(this.services.redis, this.services.pg, this.id, {
        databaseUrl: this.services.databaseUrl,
        spare: this.services.spare?.take(),
        statementTimeoutMs: runStatementTimeoutMs(deadlineMs),
        onLost: (error) => this.cancel(`PostgreSQL closed the run's connection: ${error.message}`),
        silence: this.services.silence,
        log: (line) => this.logLine(line),
      });
      const owned = await abortable(underway.stores, signal);
      // A library variant's lock lives where the library puts it: the scenario reads it there.
      const stores = { ...owned, key: (name: string) => owned.key(storedKey(variant.keyAliases, name)) };
      if (needs) underway.lab = startRunLab(workerIds, needs, this.services.pool.storeUrls, this.services.pool.labMechanisms);
      const lab = underway.lab && (await abortable(underway.lab, signal));
      if (lab) this.links.useHosts(lab.hosts, workerIds);
      const info = {
        runId: this.id,
        date: new Date().toISOString().slice(0, 10),
        variant: variantForSetup(variant),
        ...(lab && Object.keys(lab.hosts).length > 0 ? { hosts: lab.hosts } : {}),
        // Looked at only for a run with a lab: the first look may build the wall clock shim.
        ...(needs ? { mechanisms: this.services.pool.labMechanisms } : {}),
      };
      underway.fixture = scenario.setup(stores, timed, info);
      const fixture = await abortable(underway.fixture, signal);
      // Worker agents never run a lab's workers, nor those of a scenario that reaches this machine's own services.
      const placement = { onServer: needs ? `${scenario.id}'s lab is made on this server` : scenario.workersOnServer };
      underway.children = (
        lab?.launches.some((l) => l.wrap || l.env)
          ? this.services.pool.takeFresh(lab.launches, placement)
          : this.services.pool.take(workerIds.length, placement)
      ).catch((error: unknown) => {
        if (error instanceof AgentsUnavailable) throw error;
        throw new Error(
          `could not start the run's worker processes (are Redis and PostgreSQL up?): ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      const children = await abortable(underway.children, signal);
      underway.adopted = true;
      clearTimeout(deadline);
      deadline = setTimeout(() => this.cancel(`the run passed its deadline of ${deadlineMs} ms; its workers were killed`), deadlineMs);

      const coordinator = new Coordinator(workerIds, faults);
      fixture?.lockHeld?.(({ key, token, remainingMs }) => this.log.append(null, { type: 'lock-held', key, token, pttlMs: remainingMs }));
      this.isolation.useCuts(fixture?.isolate ?? {}, (latch) => coordinator.signal(latch));
      this.slowdowns.useSlows(fixture?.slow ?? {}, (latch) => coordinator.signal(latch));
      this.log.startClock();
      signal.throwIfAborted();
      this.move('running');
      this.log.append(null, {
        type: 'run-started',
        scenario: scenario.id,
        variant: variant.id,
        correct: variant.correct,
        params,
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
      const observer = new KeyObserver(
        this.services.redis,
        stores.keyPrefix,
        scenario.watchedKeys(timed, info).map((name) => storedKey(variant.keyAliases, name)),
        (stored, storedBefore) => {
          const o = { ...stored, key: scenarioKey(variant.keyAliases, stored.key) };
          const before = storedBefore && { ...storedBefore, key: o.key };
          this.log.append(null, { type: 'key-observed', key: o.key, value: o.value, pttlMs: o.pttlMs });
          underway.keysRecorded = underway.keysRecorded
            .then(() => scenario.onKeyObserved?.(stores, o, before))
            .then(() => {
              if (o.value !== null) coordinator.signal(keySeenLatch(o.key, o.value));
            });
          underway.keysRecorded.catch((error: unknown) => this.cancel(`could not record what Redis held: ${String(error)}`));
        },
        (error) => this.cancel(`Redis stopped answering during the run: ${error.message}`),
        this.services.keyspace,
        (stored) => coordinator.signal(keyGoneLatch(scenarioKey(variant.keyAliases, stored))),
      );
      underway.observers.push(observer);
      if (scenario.observe) {
        const observe = scenario.observe.bind(scenario, stores, fixture);
        underway.observers.push(
          new RowObserver(
            observe,
            (store, target, value) => this.log.append(null, { type: 'row-observed', store, target, value }),
            (error) =>
              this.cancel(
                `${fromPostgres(error) ? "PostgreSQL failed while the timeline's ground truth was read" : 'Reading the ground truth for the timeline failed'} during the run: ${error.message}`,
              ),
          ),
        );
      }

      workerIds.forEach((workerId, i) => {
        const plan: WorkerPlan = {
          runId: this.id,
          workerId,
          workerIds,
          scenario: scenario.id,
          variant: variant.id,
          params: timed,
          date: info.date,
          runStartNs: this.log.startedAtNs.toString(),
          keyPrefix: stores.keyPrefix,
          schema: stores.schema,
          faults,
          shared: { ...lab?.shared, ...fixture?.shared },
        };
        underway.exits.push(this.processes.drive(children[i]!, plan, coordinator));
      });
      // Cancelled while the workers were being wired: they go at once.
      if (signal.aborted) this.processes.killAll();

      await Promise.all(underway.exits);
      signal.throwIfAborted();
      this.move('ending');
      await abortable(Promise.all(underway.observers.map((o) => o.stop())), signal);
      await abortable(underway.keysRecorded, signal); // the key observer's last sample included
      const metrics = await abortable(scenario.measure(stores, timed, info, fixture), signal);
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
    } catch (error) {
      // A cancelled run fails with the reason it was cancelled for, not with whatever that interrupted.
      const message = this.redact(this.cancelReason() ?? (error instanceof Error ? error.message : String(error)));
      if (!this.done) this.end({ type: 'run-failed', message });
      return { status: 'failed', message };
    } finally {
      clearTimeout(deadline);
      this.links.end();
      this.isolation.end();
      this.slowdowns.end();
      this.processes.killAll();
      await this.cleanUpWithin(underway, CLEANUP_BUDGET_MS);
      this.settle();
    }
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

  /** Cleans up what the start set going, even what a cancel stopped the run from waiting for; gives up after `budgetMs`. */
  private async cleanUpWithin(underway: Underway, budgetMs: number): Promise<void> {
    const cleanUp = async (): Promise<void> => {
      if (underway.children && !underway.adopted) {
        const late = await underway.children.catch(() => [] as WorkerProcess[]);
        await Promise.all(late.map((child) => killAndWait(child)));
      }
      const stores = await underway.stores?.catch(() => undefined);
      const fixture = await underway.fixture?.catch(() => undefined);
      await Promise.all(underway.exits);
      await Promise.allSettled(underway.observers.map((o) => o.stop()));
      await underway.keysRecorded.catch(() => undefined);
      await fixture?.close?.().catch((error: unknown) => this.logLine(`run ${this.id} fixture: ${String(error)}`));
      // Once its processes are gone: a namespace is deleted for good only when nothing runs in it.
      const lab = await underway.lab?.catch(() => undefined);
      await lab?.close().catch((error: unknown) => this.logLine(`run ${this.id} lab hosts: ${String(error)}`));
      await stores?.cleanup().catch((error: unknown) => this.logLine(`cleanup of run ${this.id} failed: ${String(error)}`));
    };
    let budget: NodeJS.Timeout | undefined;
    await Promise.race([
      cleanUp(),
      // A silent store: its commands would hold the steps above for their timeouts.
      cleanUpOnSilence(this.services.silence, underway.stores, Promise.all(underway.exits)),
      new Promise<void>((resolve) => {
        budget = setTimeout(() => {
          this.logLine(`cleanup of run ${this.id} did not finish within ${budgetMs} ms`);
          resolve();
        }, budgetMs);
      }),
    ]);
    clearTimeout(budget);
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

  private logLine(line: string): void {
    console.error(`racelab: ${this.redact(line)}`);
  }

  private redact(text: string): string {
    return this.services.redact ? this.services.redact(text) : text;
  }
}
