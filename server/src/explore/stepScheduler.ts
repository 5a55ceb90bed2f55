// The scheduler of an explored run. Each worker stops at its scheduling points (a store
// command, a checkpoint, a pause: worker/scheduledStores.ts); once every live worker is
// waiting (or the ones not waiting have been busy for BLOCKED_MS: blocked in a store, on
// another's lock), the scheduler lets one go: the schedule's choice at this decision, else
// the default: the worker that went last, unless it paused, then the next in turn. A
// choice may play a fault first: a key of the run expires on Redis's clock, or the worker is
// killed where it waits. Every decision is kept (the trace): the explorer builds the next
// schedules from it and tells the story of a failing one.
import type { ScheduleChoice, StepAt } from '@racelab/shared';

/**
 * How long a worker that is neither waiting at a point nor gone may stay busy before the
 * scheduler decides without it, in ms: it is blocked in a store (a row lock, a blocking
 * command) or in a library's own timer. Wide against a store command's milliseconds.
 */
export const BLOCKED_MS = 250;

/** One decision: who was waiting and where, what went, and what it cost. */
export interface Decision {
  /** Each waiting worker's next step. */
  waiting: Array<{ worker: string; step: StepAt }>;
  choice: ScheduleChoice;
  /** It let another worker go while the last one, which had not paused, waited to go on. */
  preemption: boolean;
  /** The run's keys that had a time to live at this decision: the leases a fault may expire. */
  leases: string[];
  /** The schedule named a worker that was not waiting here: the default went instead. */
  diverged?: true;
}

/** What the scheduler needs of its run. */
export interface ScheduledRun {
  /** The run's keys (without its prefix) that have a time to live now. */
  leases(): Promise<string[]>;
  /** Expires one of them on Redis's clock, and resolves once Redis no longer has it. */
  expire(key: string): Promise<void>;
  /** Kills a worker's process (SIGKILL). */
  kill(workerId: string): void;
  /** The run's timeline hears of a fault the schedule played. */
  note(workerId: string, words: string): void;
}

interface Waiting {
  step: StepAt;
  go: () => void;
}

export class StepScheduler {
  readonly trace: Decision[] = [];
  private readonly waiting = new Map<string, Waiting[]>();
  private alive: string[] = [];
  private run: ScheduledRun | undefined;
  private last: string | undefined;
  private lastPaused = false;
  private deciding = false;
  private blockedTimer: NodeJS.Timeout | undefined;

  constructor(readonly choices: readonly ScheduleChoice[] = []) {}

  /** The run starts: its workers, in order, and its hands on the stores and processes. */
  bind(workerIds: string[], run: ScheduledRun): void {
    this.alive = [...workerIds];
    this.run = run;
  }

  /** A worker stops at a scheduling point; resolves when it may go on. */
  arrive(workerId: string, step: StepAt): Promise<void> {
    return new Promise((go) => {
      const queue = this.waiting.get(workerId) ?? [];
      queue.push({ step, go });
      this.waiting.set(workerId, queue);
      this.settle();
    });
  }

  /** A worker has exited: nobody waits for it any more. */
  gone(workerId: string): void {
    this.alive = this.alive.filter((id) => id !== workerId);
    this.waiting.delete(workerId);
    this.settle();
  }

  /** Ends the run's scheduling: its timer goes. */
  stop(): void {
    clearTimeout(this.blockedTimer);
  }

  private waitingWorkers(): string[] {
    return this.alive.filter((id) => (this.waiting.get(id)?.length ?? 0) > 0);
  }

  /** Decides now when every live worker waits; otherwise once the busy ones have been busy for BLOCKED_MS. */
  private settle(): void {
    if (this.deciding || !this.run) return;
    clearTimeout(this.blockedTimer);
    const waiting = this.waitingWorkers();
    if (waiting.length === 0) return;
    if (waiting.length === this.alive.length) {
      void this.decide();
      return;
    }
    this.blockedTimer = setTimeout(() => void this.decide(), BLOCKED_MS);
  }

  private async decide(): Promise<void> {
    const run = this.run!;
    this.deciding = true;
    try {
      const names = this.waitingWorkers();
      if (names.length === 0) return;
      const leases = await run.leases();
      const planned = this.choices[this.trace.length];
      const fallback = this.defaultChoice(names);
      const diverged = planned !== undefined && !names.includes(planned.worker);
      const choice = planned && !diverged ? planned : { worker: fallback };
      const decision: Decision = {
        waiting: names.map((worker) => ({ worker, step: this.waiting.get(worker)![0]!.step })),
        choice,
        preemption: this.preempts(choice.worker, names),
        leases,
        ...(diverged ? { diverged: true as const } : {}),
      };
      this.trace.push(decision);
      await this.play(choice, leases);
    } finally {
      this.deciding = false;
    }
    this.settle();
  }

  /** The choice's fault, then its worker goes (or dies). */
  private async play(choice: ScheduleChoice, leases: string[]): Promise<void> {
    const run = this.run!;
    if (choice.expire !== undefined && leases.includes(choice.expire)) {
      run.note(choice.worker, `the schedule lets the lease '${choice.expire}' run out on Redis's clock`);
      await run.expire(choice.expire);
    }
    const next = this.waiting.get(choice.worker)!.shift()!;
    if (choice.kill) {
      run.note(choice.worker, `the schedule kills ${choice.worker} where it waits`);
      this.gone(choice.worker);
      run.kill(choice.worker);
      return;
    }
    this.last = choice.worker;
    this.lastPaused = next.step.kind === 'yield';
    next.go();
  }

  /** The worker that went last goes on unless it paused; then the next waiting one after it, in turn. */
  private defaultChoice(names: string[]): string {
    if (this.last !== undefined && names.includes(this.last) && !this.lastPaused) return this.last;
    const order = this.alive;
    const from = this.last === undefined ? -1 : order.indexOf(this.last);
    for (let i = 1; i <= order.length; i++) {
      const id = order[(from + i + order.length) % order.length]!;
      if (names.includes(id)) return id;
    }
    return names[0]!;
  }

  /** Letting `worker` go preempts the last one when it waits to go on from a step that was not a pause. */
  private preempts(worker: string, names: string[]): boolean {
    return this.last !== undefined && worker !== this.last && names.includes(this.last) && !this.lastPaused;
  }
}
