// A run's worker processes: each one wired to the run (its events into the log, its
// barriers and latches through the coordinator, its checkpoints struck with real
// signals), the page's pause, resume and kill, and the end of them all. A process is
// never left stopped: every kill sends SIGCONT first, and the timers that end planned
// stalls go with the processes. A worker on a worker agent's host is driven alike: its
// signals are the agent's, on that host (agents/remoteWorker.ts).
import { lostConnectionWords, parseWorkerEvent, storeLostBy, type FaultRule, type LiveFaultAction } from '@racelab/shared';
import type { FromWorker, ToWorker, WorkerPlan, WorkerProcess } from '../worker/ipc.js';
import type { Coordinator } from './coordinator.js';
import type { EventBody } from './runLog.js';
import { doneLatch } from '../worker/latches.js';
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
  if (signal) return `was killed from outside the run (${signal})`;
  const store = storeLostBy(code);
  return store ? `exited: ${lostConnectionWords(store)}` : `exited with code ${code} before it finished`;
}

export class RunProcesses {
  private readonly children = new Map<string, WorkerProcess>();
  private readonly exited = new Set<string>();
  /** Workers the run itself killed (fault plan, page, ctx.die(), cancel) or that reported their end. */
  private readonly expectedExit = new Set<string>();
  /** Timers that end planned stalls (SIGCONT); cleared when the run's processes are killed. */
  private readonly stallTimers = new Set<NodeJS.Timeout>();
  private readonly pausedByPage = new Set<string>();

  constructor(private readonly host: ProcessHost) {}

  /** Planned stalls whose SIGCONT is still to come. */
  get stallsPending(): number {
    return this.stallTimers.size;
  }

  /** Wires one worker process into the run, sends it its plan, and resolves when it has exited. */
  drive(child: WorkerProcess, plan: WorkerPlan, coordinator: Coordinator): Promise<void> {
    const { workerId } = plan;
    this.children.set(workerId, child);
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
            this.host.cancel(`${workerId} sent an event that does not match the event model`);
            break;
          }
          const { atMs, workerId: _, ...body } = event;
          this.host.append(workerId, body, atMs);
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
          this.strike(child, workerId, coordinator.faultAt(message.name, workerId), () => reply({ kind: 'released', id: message.id }));
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
          if (message.error) this.host.cancel(`${workerId} failed: ${message.error}`);
          coordinator.signal(doneLatch(workerId));
          break;
        case 'ready':
          break;
      }
    });
    return new Promise((resolve) => {
      const ended = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.host.append(workerId, { type: 'worker-exited', code, signal });
        // Killed from outside the run, or crashed: the run's numbers would mean nothing.
        if (!this.expectedExit.has(workerId) && (signal !== null || code !== 0)) {
          const where = child.host ? ` on agent ${child.host}` : '';
          this.host.cancel(`${workerId} (pid ${child.pid ?? '?'}${where}) ${exitWords(child, code, signal)}`);
        }
        coordinator.signal(doneLatch(workerId));
        coordinator.gone(workerId);
        resolve();
      };
      child.once('exit', (code, signal) => {
        this.exited.add(workerId);
        // What it sent before it exited may still be in the pipe (its events, the 'finished'
        // that makes the exit expected): the exit is judged once the channel has delivered it all.
        if (child.connected) child.once('disconnect', () => ended(code, signal));
        else ended(code, signal);
      });
      this.host.append(workerId, { type: 'worker-started', pid: child.pid ?? -1, ...(child.host ? { host: child.host } : {}) });
      child.send({ kind: 'plan', plan } satisfies ToWorker);
    });
  }

  /** A fault from the page on one worker's real process; returns an error when it cannot apply. */
  fault(
    workerId: string,
    action: Exclude<LiveFaultAction, 'partition' | 'heal' | 'isolate' | 'rejoin' | 'slow' | 'restore'>,
  ): string | undefined {
    const child = this.children.get(workerId);
    if (!child) return `no worker '${workerId}' in this run`;
    if (this.exited.has(workerId)) return `${workerId} has already exited`;
    if (action === 'kill') {
      this.host.append(workerId, { type: 'process-killed', signal: 'SIGKILL' });
      this.expectedExit.add(workerId);
      child.kill('SIGKILL');
    } else if (action === 'pause') {
      if (this.pausedByPage.has(workerId)) return `${workerId} is already paused`;
      this.pausedByPage.add(workerId);
      child.kill('SIGSTOP');
      this.host.append(workerId, { type: 'process-paused', plannedMs: null });
    } else {
      if (!this.pausedByPage.delete(workerId)) return `${workerId} is not paused`;
      child.kill('SIGCONT');
      this.host.append(workerId, { type: 'process-resumed' });
    }
    return undefined;
  }

  /** Kills every process still alive, SIGCONT before SIGKILL, and drops the timers of planned stalls. */
  killAll(): void {
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

  /** Lets go of the processes (all exited): an ended run keeps its log, not its processes. */
  forget(): void {
    this.children.clear();
  }

  /** Applies a fault to a real process: SIGSTOP then SIGCONT, or SIGKILL. */
  private strike(child: WorkerProcess, workerId: string, fault: FaultRule | undefined, resume: () => void): void {
    if (!fault) return resume();
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
    if (fault.action === 'kill') {
      this.host.append(workerId, { type: 'process-killed', signal: 'SIGKILL' });
      this.expectedExit.add(workerId);
      child.kill('SIGKILL');
      return;
    }
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
