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
  type FaultRule,
  type Metrics,
  type Params,
  type RunEvent,
  type ServerEventBody,
  type Verdict,
} from '@racelab/shared';
import type { AnyScenario } from '../scenarios/registry.js';
import type { RunFixture } from '../scenarios/types.js';
import type { FromWorker, ToWorker, WorkerPlan } from '../worker/ipc.js';
import { monotonicNs, msSince } from './clock.js';
import { Coordinator } from './coordinator.js';
import { KeyObserver } from './keyObserver.js';
import type { KeyspaceEvents } from './keyspaceEvents.js';
import { RowObserver } from './rowObserver.js';
import { createRunStores, type OwnedRunStores } from './runStores.js';
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
}

export interface RunServices {
  pool: WorkerPool;
  redis: Redis;
  pg: pg.Pool;
  /** Redis's change notifications, when this Redis gives them. */
  keyspace?: KeyspaceEvents | null;
}

export type RunOutcome =
  | ({ status: 'finished'; metrics: Metrics } & Verdict)
  | { status: 'failed'; message: string };

type Listener = (event: RunEvent) => void;

export class Run {
  readonly id = randomBytes(5).toString('hex');
  readonly events: RunEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly children = new Map<string, ChildProcess>();
  private startNs = monotonicNs();
  private failure: string | undefined;
  private abort: (() => void) | undefined;
  private readonly exited = new Set<string>();
  private readonly pausedByPage = new Set<string>();
  /** True once the run has ended, whatever its outcome. */
  done = false;

  constructor(
    private readonly request: RunRequest,
    private readonly services: RunServices,
  ) {}

  /** Subscribes to every event appended from now on; returns the unsubscribe. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends the run now: kills its workers and fails it with this reason. */
  cancel(reason: string): void {
    this.fail(reason);
    this.abort?.();
  }

  /** Plays the run to its end and returns its outcome; never throws. */
  async start(): Promise<RunOutcome> {
    const { scenario, variantId, params } = this.request;
    const variant = scenario.variants.find((v) => v.id === variantId);
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
    try {
      stores = await createRunStores(this.services.redis, this.services.pg, this.id);
      fixture = await scenario.setup(stores, timed, { date });
      const children = await this.services.pool.take(workerIds.length);
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
        scenario.watchedKeys(timed, { date }),
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
          (target, value) => this.append(null, { type: 'row-observed', target, value }),
          (error) => this.cancel(`PostgreSQL stopped answering during the run: ${error.message}`),
        );
      }

      const exits = workerIds.map((workerId, i) => {
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
        return this.drive(child, plan, coordinator);
      });

      const deadlineMs = scenario.deadlineMs(timed);
      const deadline = setTimeout(
        () => this.cancel(`the run passed its deadline of ${deadlineMs} ms; its workers were killed`),
        deadlineMs,
      );
      this.abort = () => {
        for (const child of this.children.values()) child.kill('SIGKILL');
      };
      await Promise.all(exits);
      clearTimeout(deadline);
      await observer.stop();
      await rows?.stop();

      if (this.failure) return this.failed(this.failure);
      const metrics = await scenario.measure(stores, timed, { date }, fixture);
      const verdict = judge(scenario.expectations(params), metrics);
      this.append(null, { type: 'run-finished', metrics, expectations: verdict.results, verdict: verdict.verdict });
      return { status: 'finished', metrics, ...verdict };
    } catch (error) {
      return this.failed(error instanceof Error ? error.message : String(error));
    } finally {
      this.done = true;
      this.abort?.();
      await observer?.stop();
      await rows?.stop();
      await fixture?.close?.().catch((error: unknown) => console.error(`racelab: run ${this.id} fixture: ${String(error)}`));
      await stores?.cleanup().catch((error: unknown) => console.error(`racelab: cleanup of run ${this.id} failed: ${String(error)}`));
      this.listeners.clear();
    }
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
            this.fail(`${workerId} sent an event that does not match the event model`);
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
          if (message.error) this.fail(`${workerId} failed: ${message.error}`);
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
      child.kill('SIGKILL');
      return;
    }
    const ms = fault.ms ?? 0;
    child.kill('SIGSTOP');
    this.append(workerId, { type: 'process-paused', plannedMs: ms });
    setTimeout(() => {
      child.kill('SIGCONT');
      this.append(workerId, { type: 'process-resumed' });
      resume();
    }, ms);
  }

  private fail(message: string): void {
    this.failure ??= message;
  }

  private failed(message: string): RunOutcome {
    this.append(null, { type: 'run-failed', message });
    return { status: 'failed', message };
  }

  private append(workerId: string | null, body: ServerEventBody | Omit<RunEvent, 'seq' | 'atMs' | 'workerId'>, atMs?: number): void {
    const event = { ...body, seq: this.events.length, atMs: atMs ?? msSince(this.startNs), workerId } as RunEvent;
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }
}
