// A run's worker processes: each one wired to the run (its events into the log, its
// barriers and latches through the coordinator, its checkpoints struck with real
// signals), the page's pause, resume and kill, and the end of them all. A process is
// never left stopped: every kill sends SIGCONT first, and the timers that end planned
// stalls go with the processes. A worker on a worker agent's host is driven alike: its
// signals are the agent's, on that host (agents/remoteWorker.ts). Each worker has one
// status (workerStatus.ts): working, paused by the page, leaving, exited or left. A worker
// that offers to stay once its part is over (worker/workerMain.ts; runs/runSetting.ts keepsWorkers
// says which may) goes back to the pool instead of exiting, unless anything struck it in this run.
import { lostConnectionWords, parseWorkerEvent, storeLostBy, type FaultRule, type LiveFaultAction } from '@racelab/shared';
import type { FromWorker, ToWorker, WorkerPlan, WorkerProcess } from '../worker/ipc.js';
import type { Coordinator } from './coordinator.js';
import type { EventBody } from './runLog.js';
import { doneLatch } from '../worker/latches.js';
import { exitExpected, hasExited, isPaused, moveWorker, type WorkerMove, type WorkerStatus } from './workerStatus.js';
import type { Slowdown } from '../labnet/delayRelay.js';

/** What the processes need of their run. */
export interface ProcessHost {
  /** Appends to the run's log (nothing once it has ended). */
  append(workerId: string | null, body: EventBody, atMs?: number): void;
  /** Ends the run with this reason. */
  cancel(reason: string): void;
  /** Cuts a worker's link (for `ms`, or to the run's end); returns an error when it cannot. */
  partition(workerId: string, ms?: number): string | undefined;
  /** Cuts a lab node from every worker (for `ms`, or to the run's end), then calls `onCut`; returns an error when it cannot. */
  isolate(node: string, onCut: () => void, ms?: number): string | undefined;
  /** Slows a lab node for every worker (for `ms`, or to the run's end), then calls `onSlowed`; returns an error when it cannot. */
  slow(node: string, slowdown: Slowdown, onSlowed: () => void, ms?: number): string | undefined;
  /** Takes back a worker that offers to serve the next run; false when it must exit instead. */
  keep?(child: WorkerProcess): boolean;
}

/** SIGKILLs a process and resolves once it has exited. */
export function killAndWait(child: WorkerProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

/** Why a worker ended that the run did not expect to, in words for the run's failure. */
function exitWords(child: WorkerProcess, code: number | null, signal: NodeJS.Signals | null): string {
  if (child.lost) return child.lost;
  const because = child.endedBecause?.();
  if (because) return `ended: ${because}`;
  if (signal) return `was killed from outside the run (${signal})`;
  const store = storeLostBy(code);
  return store ? `exited: ${lostConnectionWords(store)}` : `exited with code ${code} before it finished`;
}

/** One worker process of the run and where it is in its life. */
interface Driven {
  workerId: string;
  child: WorkerProcess;
  coordinator: Coordinator;
  status: WorkerStatus;
  /** A fault reached its process in this run (a signal, a cut link, a slowed node): it never serves another. */
  struck: boolean;
  /** Unwires it from the run and resolves its drive(): for a worker that stays, which never exits here. */
  letGo(): void;
}

export class RunProcesses {
  private readonly workers = new Map<string, Driven>();
  /** Timers that end planned stalls (SIGCONT); cleared when the run's processes are killed. */
  private readonly stallTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly host: ProcessHost) {}

  /** Planned stalls whose SIGCONT is still to come. */
  get stallsPending(): number {
    return this.stallTimers.size;
  }

  /** Wires one worker process into the run, sends it its plan, and resolves when it has exited (or gone back to the pool). */
  drive(child: WorkerProcess, plan: WorkerPlan, coordinator: Coordinator): Promise<void> {
    return new Promise((resolve) => {
      const onError = (): void => undefined;
      const onMessage = (message: FromWorker): void => this.receive(worker, message);
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.move(worker, 'exit');
        const ended = (): void => {
          this.ended(worker, code, signal);
          resolve();
        };
        // What it sent before it exited may still be in the pipe (its events, the 'finished'
        // that makes the exit expected): the exit is judged once the channel has delivered it all.
        if (child.connected) child.once('disconnect', ended);
        else ended();
      };
      const letGo = (): void => {
        child.off('error', onError);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve();
      };
      const worker: Driven = { workerId: plan.workerId, child, coordinator, status: 'working', struck: false, letGo };
      this.workers.set(worker.workerId, worker);
      child.on('error', onError);
      child.on('message', onMessage);
      child.once('exit', onExit);
      this.host.append(worker.workerId, { type: 'worker-started', pid: child.pid ?? -1, ...(child.host ? { host: child.host } : {}) });
      child.send({ kind: 'plan', plan } satisfies ToWorker);
    });
  }

  /** A fault from the page on one worker's real process; returns an error when it cannot apply. */
  fault(
    workerId: string,
    action: Exclude<LiveFaultAction, 'partition' | 'heal' | 'isolate' | 'rejoin' | 'slow' | 'restore'>,
  ): string | undefined {
    const worker = this.workers.get(workerId);
    if (!worker) return `no worker '${workerId}' in this run`;
    if (hasExited(worker.status)) return `${workerId} has already exited`;
    worker.struck = true;
    if (action === 'kill') {
      this.kill(worker);
    } else if (action === 'pause') {
      if (isPaused(worker.status)) return `${workerId} is already paused`;
      this.move(worker, 'pause');
      worker.child.kill('SIGSTOP');
      this.host.append(workerId, { type: 'process-paused', plannedMs: null });
    } else {
      if (!isPaused(worker.status)) return `${workerId} is not paused`;
      this.move(worker, 'resume');
      worker.child.kill('SIGCONT');
      this.host.append(workerId, { type: 'process-resumed' });
    }
    return undefined;
  }

  /** Kills every process still alive, SIGCONT before SIGKILL, and drops the timers of planned stalls. */
  killAll(): void {
    // Planned stalls end with the run: their timers would keep a stopping process waiting.
    for (const timer of this.stallTimers) clearTimeout(timer);
    this.stallTimers.clear();
    for (const worker of this.workers.values()) {
      if (hasExited(worker.status)) continue;
      this.move(worker, 'leave');
      // SIGCONT first: a stopped process is never left stopped, whatever happens next.
      worker.child.kill('SIGCONT');
      worker.child.kill('SIGKILL');
    }
  }

  /** Lets go of the processes (all exited): an ended run keeps its log, not its processes. */
  forget(): void {
    this.workers.clear();
  }

  /** One message from a worker: an event for the log, a latch or barrier, a checkpoint to strike, its end. */
  private receive(worker: Driven, message: FromWorker): void {
    const { workerId, coordinator } = worker;
    switch (message.kind) {
      case 'event':
        return this.record(worker, message.event);
      case 'signal':
        return coordinator.signal(message.name);
      case 'wait':
        return void coordinator.waitFor(message.names).then((name) => this.reply(worker, { kind: 'released', id: message.id, name }));
      case 'barrier':
        return void coordinator.arrive(message.name, workerId).then(() => this.reply(worker, { kind: 'released', id: message.id }));
      case 'checkpoint':
        return this.strike(worker, coordinator.faultAt(message.name, workerId), () =>
          this.reply(worker, { kind: 'released', id: message.id }),
        );
      case 'step':
        return void coordinator.step(workerId, message.step).then(() => this.reply(worker, { kind: 'released', id: message.id }));
      case 'stall':
        return this.strike(worker, { checkpoint: '', target: workerId, action: 'stall', ms: message.ms }, () =>
          this.reply(worker, { kind: 'released', id: message.id }),
        );
      case 'die':
        return this.strike(worker, { checkpoint: '', target: workerId, action: 'kill' }, () => undefined);
      case 'finished':
        this.move(worker, 'leave');
        // A worker that failed ends the run at once: waiting for the others tells nothing more.
        if (message.error) this.host.cancel(`${workerId} failed: ${message.error}`);
        if (message.stays) return this.stayOrLeave(worker);
        return coordinator.signal(doneLatch(workerId));
      case 'ready':
        return;
    }
  }

  /** A worker's event into the log; one that does not match the event model ends the run. */
  private record({ workerId }: Driven, raw: unknown): void {
    const event = parseWorkerEvent(raw);
    if (!event || event.workerId !== workerId) return this.host.cancel(`${workerId} sent an event that does not match the event model`);
    const { atMs, workerId: _, ...body } = event;
    this.host.append(workerId, body, atMs);
  }

  /** A worker may exit between asking and being answered: a failed send is not an error. */
  private reply({ child }: Driven, message: ToWorker): void {
    if (child.connected) child.send(message, () => undefined);
  }

  /** A worker's exit, once its channel has delivered all it sent: in the log, and the run's end when the run did not expect it. */
  private ended({ workerId, child, coordinator, status }: Driven, code: number | null, signal: NodeJS.Signals | null): void {
    this.host.append(workerId, { type: 'worker-exited', code, signal });
    // Killed from outside the run, or crashed: the run's numbers would mean nothing.
    if (!exitExpected(status) && (signal !== null || code !== 0)) {
      const where = child.host ? ` on agent ${child.host}` : '';
      this.host.cancel(`${workerId} (pid ${child.pid ?? '?'}${where}) ${exitWords(child, code, signal)}`);
    }
    coordinator.signal(doneLatch(workerId));
    coordinator.gone(workerId);
  }

  /**
   * A worker whose explored run went well offers to stay, its run's connections closed: it
   * goes back to the pool when nothing struck it in this run and the pool takes it; otherwise
   * it is told to leave, and exits as any other. Its part is over either way.
   */
  private stayOrLeave(worker: Driven): void {
    const { workerId, child, coordinator } = worker;
    if (worker.struck || !this.host.keep?.(child)) {
      this.reply(worker, { kind: 'leave' });
      return coordinator.signal(doneLatch(workerId));
    }
    worker.letGo();
    this.move(worker, 'exit');
    this.reply(worker, { kind: 'stay' });
    this.host.append(workerId, { type: 'worker-exited', code: 0, signal: null, pooled: true });
    coordinator.signal(doneLatch(workerId));
    coordinator.gone(workerId);
  }

  /** The run kills a worker (a fault of its plan or the page's, or ctx.die()): its exit is expected. */
  private kill(worker: Driven): void {
    this.host.append(worker.workerId, { type: 'process-killed', signal: 'SIGKILL' });
    this.move(worker, 'leave');
    worker.child.kill('SIGKILL');
  }

  private move(worker: Driven, move: WorkerMove): void {
    worker.status = moveWorker(worker.status, move);
  }

  /** Applies a fault to a real process: SIGSTOP then SIGCONT, or SIGKILL. */
  private strike(worker: Driven, fault: FaultRule | undefined, resume: () => void): void {
    const { workerId, child } = worker;
    if (!fault) return resume();
    worker.struck = true;
    if (fault.action === 'partition') {
      // The process goes on at once; its connections hang until the link is healed.
      const error = this.host.partition(workerId, fault.ms);
      if (error) return this.host.cancel(`the plan's partition at '${fault.checkpoint}' cannot be played: ${error}`);
      return resume();
    }
    if (fault.action === 'isolate') {
      // The worker that reached the checkpoint goes on once the node is cut: never before.
      const error = this.host.isolate(fault.node ?? '', resume, fault.ms);
      if (error) return this.host.cancel(`the plan's isolate at '${fault.checkpoint}' cannot be played: ${error}`);
      return;
    }
    if (fault.action === 'slow') {
      // As an isolate: the worker that reached the checkpoint goes on once the node is slowed.
      const slowdown = { latencyMs: fault.latencyMs ?? 0, lossPercent: fault.lossPercent ?? 0 };
      const error = this.host.slow(fault.node ?? '', slowdown, resume, fault.ms);
      if (error) return this.host.cancel(`the plan's slow at '${fault.checkpoint}' cannot be played: ${error}`);
      return;
    }
    if (fault.action === 'kill') return this.kill(worker);
    const ms = fault.ms ?? 0;
    child.kill('SIGSTOP');
    this.host.append(workerId, { type: 'process-paused', plannedMs: ms });
    const timer = setTimeout(() => {
      this.stallTimers.delete(timer);
      child.kill('SIGCONT');
      this.host.append(workerId, { type: 'process-resumed' });
      resume();
    }, ms);
    this.stallTimers.add(timer);
  }
}
