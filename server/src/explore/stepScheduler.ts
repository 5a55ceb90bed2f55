// The scheduler of an explored run. Each worker stops at its scheduling points (a store
// command, a checkpoint, a pause: worker/scheduledStores.ts); once every live worker is
// waiting, or blocked (PostgreSQL says its session waits for another's lock), the scheduler
// lets one go: the schedule's choice at this decision, else
// the default: the worker that went last, unless it paused, then the next in turn. A
// choice may play a fault first: a key of the run expires on Redis's clock, or the worker is
// killed where it waits. Every decision is kept (the trace): the explorer builds the next
// schedules from it and tells the story of a failing one.
import type { ScheduleChoice, StepAt } from '@racelab/shared';
import type { Assumption } from '../scenarios/types.js';
import { stepKey } from './conflicts.js';

/**
 * The time scale of an explored run (and of its replay): every duration 50 times longer, so
 * that no lease runs out on the wall clock while the scheduler holds its holder; one runs out
 * only where the schedule says (its pauses take no time at all).
 */
export const EXPLORE_SPEED = 0.02;

/**
 * A run past this many decisions is spinning: the longest run of the catalogue at its defaults or
 * a corner ends in under 4,000. The explorer does not branch from one (explorer.ts), and where its
 * workers run tasks side by side the scheduler lets time pass for it all the same (letTimePass).
 */
export const SPINNING_AFTER = 20_000;

/** How often the scheduler asks whether the busy workers are blocked, in ms. */
const POLL_MS = 20;
/**
 * How long a worker may stay busy, neither waiting nor blocked, before the scheduler decides
 * without it, in ms: far past any store command or library timer of a run; a schedule that
 * needs it is noted in the run's timeline, since its replay may differ.
 */
export const BUSY_MS = 5000;

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
  /**
   * Leases that ran out before this decision because every worker only polled for them (time
   * passing, not a fault of the schedule: its replay does the same).
   */
  ranOut?: string[];
}

/** What the scheduler needs of its run. */
export interface ScheduledRun {
  /** The run's keys (without its prefix) that have a time to live now. */
  leases(): Promise<string[]>;
  /** Expires one of them on Redis's clock, and resolves once Redis no longer has it. */
  expire(key: string): Promise<void>;
  /** Whether the worker's PostgreSQL session waits for a lock another holds. */
  blocked(workerId: string): Promise<boolean>;
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
  /** The assumptions of the run's variant that its stores showed broken at its end (set by the run). */
  brokenInStores: Assumption[] = [];
  private readonly waiting = new Map<string, Waiting[]>();
  private alive: string[] = [];
  private run: ScheduledRun | undefined;
  private last: string | undefined;
  private lastPaused = false;
  private deciding = false;
  private busyTimer: NodeJS.Timeout | undefined;
  /** Workers that have reached their first point: one still starting is not busy, just late. */
  private readonly started = new Set<string>();
  /** Bumped at each arrival and departure: a poll of the busy workers that outlived it is stale. */
  private generation = 0;
  private busySince = 0;

  /**
   * Workers seen with two points waiting at once: they run work side by side (hot-key's jobs in
   * one process), so while one of their tasks waits to poll, another may be between points.
   */
  private readonly sideBySide = new Set<string>();
  /**
   * Each worker's store steps let go: how many sleeps it had let go when each last went, the last
   * step apart. A step it has slept since is one a poll loop sends again.
   */
  private readonly sentSteps = new Map<string, { sleeps: number; at: Map<string, number>; last?: string }>();
  /** The worker the schedule's last choice sent ahead, while it goes on towards `to`. */
  private ahead: { worker: string; to: string } | undefined;

  /**
   * `ahead`: once the choices are played, the last one's worker goes on (through its pauses)
   * until it reaches that step, which goes too; the default takes over sooner when the worker
   * stops waiting (blocked, or done), polls again (the same store step after a sleep: it waits
   * for what has not happened yet) or turns out to run tasks side by side. Each decision it takes is in the trace as a plain choice, so
   * the trace replays without it.
   */
  constructor(
    readonly choices: readonly ScheduleChoice[] = [],
    ahead?: StepAt,
  ) {
    const last = choices.at(-1);
    if (ahead && last) this.ahead = { worker: last.worker, to: stepKey(ahead) };
  }

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
      if (queue.length > 1) this.sideBySide.add(workerId);
      this.started.add(workerId);
      this.settle();
    });
  }

  /** A worker has exited: nobody waits for it any more. */
  gone(workerId: string): void {
    this.alive = this.alive.filter((id) => id !== workerId);
    this.waiting.delete(workerId);
    this.started.delete(workerId);
    this.settle();
  }

  /** Ends the run's scheduling: its timer goes. */
  stop(): void {
    clearTimeout(this.busyTimer);
    this.run = undefined;
  }

  private waitingWorkers(): string[] {
    return this.alive.filter((id) => (this.waiting.get(id)?.length ?? 0) > 0);
  }

  /** Decides now when every live worker waits; otherwise once each busy one is blocked (or busy past BUSY_MS). */
  private settle(): void {
    if (this.deciding || !this.run) return;
    clearTimeout(this.busyTimer);
    const generation = ++this.generation;
    this.busySince = Date.now();
    const waiting = this.waitingWorkers();
    if (waiting.length === 0 || !this.alive.every((id) => this.started.has(id))) return;
    if (waiting.length === this.alive.length) return void this.decide();
    this.busyTimer = setTimeout(() => void this.pollBusy(generation), POLL_MS);
  }

  /** Decides once every busy worker is blocked in PostgreSQL, or one has been busy past BUSY_MS. */
  private async pollBusy(generation: number): Promise<void> {
    const run = this.run;
    if (!run || generation !== this.generation) return;
    const busy = this.alive.filter((id) => (this.waiting.get(id)?.length ?? 0) === 0);
    const blocked = await Promise.all(busy.map((id) => run.blocked(id)));
    if (generation !== this.generation) return;
    if (blocked.every(Boolean)) return void this.decide();
    if (Date.now() - this.busySince >= BUSY_MS) {
      busy.filter((_, i) => !blocked[i]).forEach((id) => run.note(id, `busy for ${BUSY_MS} ms: the schedule went on without it`));
      return void this.decide();
    }
    this.busyTimer = setTimeout(() => void this.pollBusy(generation), POLL_MS);
  }

  private async decide(): Promise<void> {
    const run = this.run!;
    this.deciding = true;
    try {
      if (this.waitingWorkers().length === 0) return;
      const { ranOut, leases } = await this.readTheKeys(run);
      // Read again after the stores answered: a worker may have ended meanwhile.
      const names = this.waitingWorkers();
      if (names.length === 0) return;
      const planned = this.choices[this.trace.length] ?? this.goingAhead(names);
      const fallback = this.defaultChoice(names);
      const diverged = planned !== undefined && !names.includes(planned.worker);
      const choice = planned && !diverged ? planned : { worker: fallback };
      const decision: Decision = {
        waiting: names.map((worker) => ({ worker, step: this.waiting.get(worker)![0]!.step })),
        choice,
        preemption: this.preempts(choice.worker, names),
        leases,
        ...(diverged ? { diverged: true as const } : {}),
        ...(ranOut.length > 0 ? { ranOut } : {}),
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
    this.sent(choice.worker, next.step);
    // The worker sent ahead has arrived once it lets that step go.
    if (this.ahead?.worker === choice.worker && this.trace.length >= this.choices.length && stepKey(next.step) === this.ahead.to)
      this.ahead = undefined;
    next.go();
  }

  /**
   * Time passing where every worker only polls, then the leases a fault may expire. A store that
   * does not answer (a timeout) is said on the timeline and the decision made without them: a
   * decision must come, or every worker waits for ever.
   */
  private async readTheKeys(run: ScheduledRun): Promise<{ ranOut: string[]; leases: string[] }> {
    try {
      return await this.letTimePass(this.waitingWorkers());
    } catch (error) {
      run.note(
        this.waitingWorkers()[0] ?? this.alive[0] ?? 'worker-1',
        `the scheduler could not read the run's keys (${(error as Error).message}): this decision places no fault`,
      );
      return { ranOut: [], leases: [] };
    }
  }

  /** Keeps each worker's store steps, the last apart, and counts its sleeps. */
  private sent(worker: string, step: StepAt): void {
    const sent = this.sentSteps.get(worker) ?? { sleeps: 0, at: new Map<string, number>() };
    this.sentSteps.set(worker, sent);
    if (step.kind === 'yield') {
      if (step.why === 'sleep') sent.sleeps++;
    } else if (step.kind !== 'checkpoint') {
      sent.last = stepKey(step);
      sent.at.set(sent.last, sent.sleeps);
    }
  }

  /** The worker sent this step before and has slept since. */
  private sentBeforeASleep(worker: string, step: StepAt): boolean {
    const sent = this.sentSteps.get(worker);
    const at = sent?.at.get(stepKey(step));
    return at !== undefined && at < sent!.sleeps;
  }

  /**
   * Whether the worker only polls: its first waiting step does; of a worker running tasks side by
   * side in a spinning run, each waiting store step is a Redis command it sent before and it has
   * slept since (its tasks' loops interleave, so "the step it sent last" says nothing), its
   * sleeps left out (a sleep waits for time itself).
   */
  private onlyPolls(worker: string, spinning: boolean): boolean {
    const queue = this.waiting.get(worker)!;
    if (!(spinning && this.sideBySide.has(worker))) return this.polls(worker, queue[0]!.step);
    const stores = queue.map(({ step }) => step).filter((step) => step.kind !== 'yield');
    return stores.length > 0 && stores.every((step) => step.kind === 'redis' && this.sentBeforeASleep(worker, step));
  }

  /** The worker waits to send the very step it sent last, having slept since: it polls. */
  private polls(worker: string, step: StepAt): boolean {
    return this.sentSteps.get(worker)?.last === stepKey(step) && this.sentBeforeASleep(worker, step);
  }

  /**
   * When every live worker waits only to poll again, nothing any of them sends changes what the
   * others see: only time does. The leases their polls name run out then, on Redis's clock, as
   * the wall clock would have let them (an explored run's durations are stretched, so that no
   * lease runs out by itself while its holder is held). Without it a worker waiting for a killed
   * holder's lease would poll thousands of times. A worker running tasks side by side may have
   * one between points that could still change what the polls see, so time passes in such a run
   * only once it is spinning (SPINNING_AFTER): hot-key's jobs, on a key two customers share, can
   * each hold a lock and wait for the other's customer, and polled for 640,000 decisions (130 s)
   * until the run's own clock ended it.
   */
  private async letTimePass(names: string[]): Promise<{ ranOut: string[]; leases: string[] }> {
    const run = this.run!;
    const leases = await run.leases();
    const none = { ranOut: [], leases };
    const spinning = this.trace.length >= SPINNING_AFTER;
    if (names.length < this.alive.length || (!spinning && this.alive.some((id) => this.sideBySide.has(id)))) return none;
    if (!names.every((worker) => this.onlyPolls(worker, spinning))) return none;
    const steps = names.flatMap((worker) => this.waiting.get(worker)!.map(({ step }) => ({ worker, step })));
    const polled = [...new Set(steps.flatMap(({ step }) => (step.kind === 'redis' ? step.keys : [])))];
    const ranOut = leases.filter((key) => polled.includes(key));
    for (const key of ranOut) {
      run.note(steps[0]!.worker, `every worker only polls for '${key}': time passes and the lease runs out (Redis's clock)`);
      await run.expire(key);
    }
    // The leases read once: those that ran out are no longer there for a fault to expire.
    return { ranOut, leases: leases.filter((key) => !ranOut.includes(key)) };
  }

  /** The worker sent ahead, when it still goes ahead here; undefined once it has arrived or cannot. */
  private goingAhead(names: string[]): ScheduleChoice | undefined {
    const ahead = this.ahead;
    if (!ahead) return undefined;
    const step = names.includes(ahead.worker) ? this.waiting.get(ahead.worker)![0]!.step : undefined;
    // A worker running tasks side by side goes on with whichever task is first in its queue,
    // not the one sent ahead: it would poll with one while the step waits in another.
    if (step === undefined || this.polls(ahead.worker, step) || this.sideBySide.has(ahead.worker)) {
      this.ahead = undefined;
      return undefined;
    }
    return { worker: ahead.worker };
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
