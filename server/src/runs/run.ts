// One run of one scenario variant: forks its workers from the pool, plays the
// choreography, numbers and appends every event to the run's log (the only truth about
// a run), then measures the verdict from the stores and cleans up after itself.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import {
  judge,
  parseWorkerEvent,
  type ExpectedVerdict,
  type FaultRule,
  type Metrics,
  type Params,
  type RunEvent,
  type ServerEventBody,
  type Verdict,
} from '@racelab/shared';
import { expectedOf, findVariant, type AnyScenario } from '../scenarios/registry.js';
import type { RunFixture } from '../scenarios/types.js';
import type { FromWorker, ToWorker, WorkerPlan } from '../worker/ipc.js';
import { monotonicNs, msSince } from './clock.js';
import { Coordinator } from './coordinator.js';
import { KeyObserver } from './keyObserver.js';
import type { KeyspaceEvents } from './keyspaceEvents.js';
import { RowObserver } from './rowObserver.js';
import type { Redactor } from './redact.js';
import { createRunStores, type OwnedRunStores } from './runStores.js';
import type { SpareConnection } from './spareConnection.js';
import { scaleDurations, scaleFaults } from './timeScale.js';
import type { WorkerPool } from './workerPool.js';

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
}

/** How long a run's cleanup (observers, fixture, keys and schema) may take before the run settles anyway, in ms. */
const CLEANUP_BUDGET_MS = 15_000;
/**
 * How long a run may take to start (its schema, its setup, its worker processes), in ms.
 * Forking is the slow part on a busy machine; the scenario's own deadline starts once the
 * workers have been handed out and covers the workers and the measuring.
 */
export const START_DEADLINE_MS = 60_000;

class Cancelled extends Error {}

/** SIGKILLs a process and resolves once it has exited. */
function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

export type RunOutcome =
  | ({ status: 'finished'; metrics: Metrics; expected: ExpectedVerdict } & Verdict)
  | { status: 'failed'; message: string };

type Listener = (event: RunEvent) => void;

export class Run {
  readonly id = randomBytes(5).toString('hex');
  readonly events: RunEvent[] = [];
  /** Resolves once the run has ended and cleaned up after itself: workers gone, keys and schema dropped. */
  readonly settled: Promise<void>;
  private resolveSettled!: () => void;
  private readonly listeners = new Set<Listener>();
  private readonly children = new Map<string, ChildProcess>();
  private startNs = monotonicNs();
  private failure: string | undefined;
  private readonly onCancel: Array<() => void> = [];
  private readonly exited = new Set<string>();
  /** Workers the run itself killed (fault plan, page, ctx.die(), cancel) or that reported their end. */
  private readonly expectedExit = new Set<string>();
  /** Timers that end planned stalls (SIGCONT); cleared when the run's processes are killed. */
  private readonly stallTimers = new Set<NodeJS.Timeout>();
  private readonly pausedByPage = new Set<string>();
  private started = false;
  private cancelled = false;
  /** True once the run has ended (its run-finished or run-failed is in the log), whatever its outcome. */
  done = false;
  /** True once the run has also cleaned up after itself. */
  isSettled = false;

  /** The run's deadline once its workers are handed out, in ms, when one was set for it. */
  get deadlineMs(): number | undefined {
    return this.request.deadlineMs;
  }

  constructor(
    private readonly request: RunRequest,
    private readonly services: RunServices,
  ) {
    this.settled = new Promise((resolve) => (this.resolveSettled = resolve));
  }

  /** Worker processes this run uses. */
  get workerCount(): number {
    return this.request.scenario.workers(this.request.params).length;
  }

  /** Subscribes to every event appended from now on; returns the unsubscribe. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends the run now: kills its workers and fails it with this reason. */
  cancel(reason: string): void {
    if (this.done) return;
    this.fail(reason);
    this.cancelled = true;
    // The timeline says so at once; killing the workers and cleaning up follow (see `settled`).
    if (this.started) this.failed(reason);
    this.killAll();
    for (const callback of this.onCancel.splice(0)) callback();
  }

  /** Plays the run to its end and returns its outcome; never throws. */
  async start(): Promise<RunOutcome> {
    if (this.started) throw new Error(`run ${this.id} was already started`);
    this.started = true;
    this.services.running?.add(this);
    const { scenario, variantId, params } = this.request;
    // A mutant only gets here from a test or the stability pass: the playground refuses it to a page.
    const variant = findVariant(scenario, variantId, { mutants: true });
    if (!variant) throw new Error(`unknown variant ${variantId}`);
    const speed = this.request.speed ?? 1;
    // Workers, stores and the deadline see the scaled durations; the verdict's expectations the chosen ones.
    const timed = scaleDurations(scenario.params, params, speed);
    const faults = scaleFaults(this.request.faults ?? variant.faults ?? [], speed);
    const workerIds = scenario.workers(params);
    const date = new Date().toISOString().slice(0, 10);
    let stores: OwnedRunStores | undefined;
    let observer: KeyObserver | undefined;
    let rows: RowObserver | undefined;
    let fixture: RunFixture | undefined;
    const exits: Promise<void>[] = [];
    // What setup started, even when a cancel stopped the run from waiting for it: cleaned up all the same.
    let storesPending: Promise<OwnedRunStores> | undefined;
    let fixturePending: Promise<RunFixture> | undefined;
    let childrenPending: Promise<ChildProcess[]> | undefined;
    let childrenAdopted = false;
    // Every run ends: a deadline to start, then the scenario's deadline for its workers and measuring.
    const deadlineMs = this.request.deadlineMs ?? scenario.deadlineMs(timed);
    let deadline = setTimeout(
      () => this.cancel(`the run could not start within ${START_DEADLINE_MS / 1000} s (the machine is too busy); try again`),
      START_DEADLINE_MS,
    );
    try {
      storesPending = createRunStores(this.services.redis, this.services.pg, this.id, {
        databaseUrl: this.services.databaseUrl,
        spare: this.services.spare?.take(),
        onLost: (error) => this.cancel(`PostgreSQL closed the run's connection: ${error.message}`),
      });
      stores = await this.guard(storesPending);
      fixturePending = scenario.setup(stores, timed, { runId: this.id, date });
      fixture = await this.guard(fixturePending);
      childrenPending = this.services.pool.take(workerIds.length).catch((error: unknown) => {
        throw new Error(`could not start the run's worker processes (are Redis and PostgreSQL up?): ${error instanceof Error ? error.message : String(error)}`);
      });
      const children = await this.guard(childrenPending);
      childrenAdopted = true;
      clearTimeout(deadline);
      deadline = setTimeout(
        () => this.cancel(`the run passed its deadline of ${deadlineMs} ms; its workers were killed`),
        deadlineMs,
      );
      const coordinator = new Coordinator(workerIds, faults);

      this.startNs = monotonicNs();
      this.append(null, {
        type: 'run-started',
        scenario: scenario.id,
        variant: variant.id,
        correct: variant.correct,
        params,
        workers: workerIds,
        speed,
        faults: this.request.faults ?? variant.faults ?? [],
      });
      observer = new KeyObserver(
        this.services.redis,
        stores.keyPrefix,
        scenario.watchedKeys(timed, { runId: this.id, date }),
        (o, before) => {
          this.append(null, { type: 'key-observed', key: o.key, value: o.value, pttlMs: o.pttlMs });
          if (before && before.value !== null && o.value === null) coordinator.signal(`key-gone:${o.key}`);
        },
        (error) => this.cancel(`Redis stopped answering during the run: ${error.message}`),
        this.services.keyspace,
      );
      if (scenario.observe) {
        const observe = scenario.observe.bind(scenario, stores, fixture);
        rows = new RowObserver(
          observe,
          (store, target, value) => this.append(null, { type: 'row-observed', store, target, value }),
          (error) => this.cancel(`PostgreSQL stopped answering during the run: ${error.message}`),
        );
      }

      workerIds.forEach((workerId, i) => {
        const child = children[i]!;
        this.children.set(workerId, child);
        const plan: WorkerPlan = {
          runId: this.id,
          workerId,
          workerIds,
          scenario: scenario.id,
          variant: variant.id,
          params: timed,
          date,
          runStartNs: this.startNs.toString(),
          keyPrefix: stores!.keyPrefix,
          schema: stores!.schema,
          faults,
          shared: fixture?.shared ?? {},
        };
        exits.push(this.drive(child, plan, coordinator));
      });
      // Cancelled while the workers were being handed out: they go at once.
      if (this.failure) this.killAll();

      await Promise.all(exits);
      if (this.failure) throw new Cancelled(this.failure);
      await this.guard(Promise.all([observer.stop(), rows?.stop()]));
      if (this.failure) throw new Cancelled(this.failure);
      const metrics = await this.guard(scenario.measure(stores, timed, { runId: this.id, date }, fixture));
      if (this.failure) throw new Cancelled(this.failure);
      const verdict = judge(scenario.expectations(params), metrics);
      const expected = expectedOf(variant, params);
      this.append(null, {
        type: 'run-finished',
        metrics,
        expectations: verdict.results,
        verdict: verdict.verdict,
        expectedVerdict: expected.verdict,
        ...(expected.reason ? { expectedReason: expected.reason } : {}),
      });
      this.done = true;
      return { status: 'finished', metrics, expected, ...verdict };
    } catch (error) {
      // A cancelled run fails with the reason it was cancelled for, not with whatever that interrupted.
      return this.failed(this.failure ?? (error instanceof Error ? error.message : String(error)));
    } finally {
      clearTimeout(deadline);
      this.done = true;
      this.killAll();
      const cleanup = async (): Promise<void> => {
        if (childrenPending && !childrenAdopted) {
          const late = await childrenPending.catch(() => [] as ChildProcess[]);
          await Promise.all(late.map((child) => killAndWait(child)));
        }
        stores ??= await storesPending?.catch(() => undefined);
        fixture ??= await fixturePending?.catch(() => undefined);
        await Promise.all(exits);
        await Promise.allSettled([observer?.stop(), rows?.stop()]);
        await fixture?.close?.().catch((error: unknown) => this.log(`run ${this.id} fixture: ${String(error)}`));
        await stores?.cleanup().catch((error: unknown) => this.log(`cleanup of run ${this.id} failed: ${String(error)}`));
      };
      let budget: NodeJS.Timeout | undefined;
      await Promise.race([
        cleanup(),
        new Promise<void>((resolve) => {
          budget = setTimeout(() => {
            this.log(`cleanup of run ${this.id} did not finish within ${CLEANUP_BUDGET_MS} ms`);
            resolve();
          }, CLEANUP_BUDGET_MS);
        }),
      ]);
      clearTimeout(budget);
      this.listeners.clear();
      // An ended run is kept a while for pages that reconnect: keep its log, not its processes.
      this.children.clear();
      this.onCancel.length = 0;
      this.services.running?.delete(this);
      this.isSettled = true;
      this.resolveSettled();
      // The run and its clean-up are over: the pool forks what it handed out and the next
      // run's connection is made (never during a run), once whoever awaited this run has
      // been told (a fork blocks for milliseconds).
      setImmediate(() => {
        this.services.pool.replenish();
        this.services.spare?.refill();
      });
    }
  }

  /** Waits for `promise` unless the run is cancelled first; then rejects at once (the finally block cleans up what it still delivers). */
  private guard<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let over = false;
      const onCancel = (): void => {
        if (over) return;
        over = true;
        reject(new Cancelled(this.failure ?? 'cancelled'));
      };
      promise.then(
        (value) => {
          if (over) return;
          over = true;
          resolve(value);
        },
        (error: unknown) => {
          if (over) return;
          over = true;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
      if (this.cancelled) onCancel();
      else this.onCancel.push(onCancel);
    });
  }

  private killAll(): void {
    // Planned stalls end with the run: their timers would keep a stopping process waiting.
    for (const timer of this.stallTimers) clearTimeout(timer);
    this.stallTimers.clear();
    for (const [workerId, child] of this.children) {
      if (this.exited.has(workerId)) continue;
      this.expectedExit.add(workerId);
      // SIGCONT first: a stopped process is never left stopped, whatever happens next.
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }

  private log(line: string): void {
    console.error(`racelab: ${this.redact(line)}`);
  }

  private redact(text: string): string {
    return this.services.redact ? this.services.redact(text) : text;
  }

  /** Wires one worker process into the run and resolves when it has exited. */
  private drive(child: ChildProcess, plan: WorkerPlan, coordinator: Coordinator): Promise<void> {
    const { workerId } = plan;
    // A worker may exit between asking and being answered: a failed send is not an error.
    const reply = (message: ToWorker): void => {
      if (child.connected) child.send(message, () => undefined);
    };
    child.on('error', () => undefined);
    child.on('message', (message: FromWorker) => {
      switch (message.kind) {
        case 'event': {
          const event = parseWorkerEvent(message.event);
          if (!event || event.workerId !== workerId) {
            this.cancel(`${workerId} sent an event that does not match the event model`);
            break;
          }
          const { atMs, workerId: _, ...body } = event;
          this.append(workerId, body, atMs);
          break;
        }
        case 'signal':
          coordinator.signal(message.name);
          break;
        case 'wait':
          void coordinator.waitFor(message.names).then((name) => reply({ kind: 'released', id: message.id, name }));
          break;
        case 'barrier':
          void coordinator.arrive(message.name, workerId).then(() => reply({ kind: 'released', id: message.id }));
          break;
        case 'checkpoint':
          this.strike(child, workerId, coordinator.faultAt(message.name, workerId), () =>
            reply({ kind: 'released', id: message.id }),
          );
          break;
        case 'stall':
          this.strike(child, workerId, { checkpoint: '', target: workerId, action: 'stall', ms: message.ms }, () =>
            reply({ kind: 'released', id: message.id }),
          );
          break;
        case 'die':
          this.strike(child, workerId, { checkpoint: '', target: workerId, action: 'kill' }, () => undefined);
          break;
        case 'finished':
          this.expectedExit.add(workerId);
          // A worker that failed ends the run at once: waiting for the others tells nothing more.
          if (message.error) this.cancel(`${workerId} failed: ${message.error}`);
          coordinator.signal(`done:${workerId}`);
          break;
        case 'ready':
          break;
      }
    });
    return new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited.add(workerId);
        this.append(workerId, { type: 'worker-exited', code, signal });
        // Killed from outside the run, or crashed: the run's numbers would mean nothing.
        // (Exit code 0 comes only after the worker's 'finished' message, which may still be in the pipe.)
        if (!this.expectedExit.has(workerId) && (signal !== null || code !== 0)) {
          const how = signal ? `was killed from outside the run (${signal})` : `exited with code ${code} before it finished`;
          this.cancel(`${workerId} (pid ${child.pid ?? '?'}) ${how}`);
        }
        coordinator.signal(`done:${workerId}`);
        coordinator.gone(workerId);
        resolve();
      });
      this.append(workerId, { type: 'worker-started', pid: child.pid ?? -1 });
      child.send({ kind: 'plan', plan } satisfies ToWorker);
    });
  }

  /** A fault from the page on one worker's real process; returns an error when it cannot apply. */
  fault(workerId: string, action: 'pause' | 'resume' | 'kill'): string | undefined {
    const child = this.children.get(workerId);
    if (this.done) return 'the run has ended';
    if (!child) return `no worker '${workerId}' in this run`;
    if (this.exited.has(workerId)) return `${workerId} has already exited`;
    if (action === 'kill') {
      this.append(workerId, { type: 'process-killed', signal: 'SIGKILL' });
      this.expectedExit.add(workerId);
      child.kill('SIGKILL');
    } else if (action === 'pause') {
      if (this.pausedByPage.has(workerId)) return `${workerId} is already paused`;
      this.pausedByPage.add(workerId);
      child.kill('SIGSTOP');
      this.append(workerId, { type: 'process-paused', plannedMs: null });
    } else {
      if (!this.pausedByPage.delete(workerId)) return `${workerId} is not paused`;
      child.kill('SIGCONT');
      this.append(workerId, { type: 'process-resumed' });
    }
    return undefined;
  }

  /** Applies a fault to a real process: SIGSTOP then SIGCONT, or SIGKILL. */
  private strike(child: ChildProcess, workerId: string, fault: FaultRule | undefined, resume: () => void): void {
    if (!fault) return resume();
    if (fault.action === 'kill') {
      this.append(workerId, { type: 'process-killed', signal: 'SIGKILL' });
      this.expectedExit.add(workerId);
      child.kill('SIGKILL');
      return;
    }
    const ms = fault.ms ?? 0;
    child.kill('SIGSTOP');
    this.append(workerId, { type: 'process-paused', plannedMs: ms });
    const timer = setTimeout(() => {
      this.stallTimers.delete(timer);
      child.kill('SIGCONT');
      this.append(workerId, { type: 'process-resumed' });
      resume();
    }, ms);
    this.stallTimers.add(timer);
  }

  private fail(message: string): void {
    this.failure ??= message;
  }

  private failed(reason: string): RunOutcome {
    const message = this.redact(reason);
    this.append(null, { type: 'run-failed', message });
    this.done = true;
    return { status: 'failed', message };
  }

  private append(workerId: string | null, body: ServerEventBody | Omit<RunEvent, 'seq' | 'atMs' | 'workerId'>, atMs?: number): void {
    // The log ends with run-finished or run-failed: nothing comes after the end.
    if (this.done) return;
    const event = { ...body, seq: this.events.length, atMs: atMs ?? msSince(this.startNs), workerId } as RunEvent;
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }
}
