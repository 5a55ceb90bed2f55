// Choreography of a run: latches, barriers and the fault plan's checkpoints. This is
// what makes races deterministic: a verdict never depends on which process got lucky.
import type { FaultRule, StepAt } from '@racelab/shared';
import type { StepScheduler } from '../explore/stepScheduler.js';

type Waiter = { names: string[]; resolve: (name: string) => void };
type Barrier = { arrived: Set<string>; release: Array<() => void> };

export class Coordinator {
  private readonly latches = new Set<string>();
  private waiters: Waiter[] = [];
  private readonly barriers = new Map<string, Barrier>();
  private readonly alive: Set<string>;
  private readonly firedRules = new Set<FaultRule>();

  constructor(
    workerIds: string[],
    private readonly faults: FaultRule[],
    /** An explored run's scheduler: it, not the latches, lets the workers go. */
    private readonly scheduler?: StepScheduler,
  ) {
    this.alive = new Set(workerIds);
  }

  /** Sets a latch: every wait naming it is released, now and later. */
  signal(name: string): void {
    if (this.latches.has(name)) return;
    this.latches.add(name);
    const ready = this.waiters.filter((w) => w.names.includes(name));
    this.waiters = this.waiters.filter((w) => !w.names.includes(name));
    for (const w of ready) w.resolve(name);
  }

  /** Resolves with the first of `names` to be set. */
  waitFor(names: string[]): Promise<string> {
    const set = names.find((n) => this.latches.has(n));
    if (set !== undefined) return Promise.resolve(set);
    return new Promise((resolve) => this.waiters.push({ names, resolve }));
  }

  /** Resolves once every live worker has arrived at the barrier. */
  arrive(name: string, workerId: string): Promise<void> {
    const barrier = this.barriers.get(name) ?? { arrived: new Set<string>(), release: [] };
    this.barriers.set(name, barrier);
    barrier.arrived.add(workerId);
    const done = new Promise<void>((resolve) => barrier.release.push(resolve));
    this.settleBarriers();
    return done;
  }

  /** A worker has exited: barriers and the scheduler stop waiting for it. */
  gone(workerId: string): void {
    this.alive.delete(workerId);
    this.settleBarriers();
    this.scheduler?.gone(workerId);
  }

  /** An explored run's worker at a scheduling point: resolves when the schedule lets it go (at once in any other run). */
  step(workerId: string, step: StepAt): Promise<void> {
    return this.scheduler ? this.scheduler.arrive(workerId, step) : Promise.resolve();
  }

  /** What the fault plan does to this worker at this checkpoint. */
  faultAt(checkpoint: string, workerId: string): FaultRule | undefined {
    const rule = this.faults.find(
      (r) => r.checkpoint === checkpoint && (r.target === workerId || (r.target === 'first' && !this.firedRules.has(r))),
    );
    if (rule) this.firedRules.add(rule);
    return rule;
  }

  private settleBarriers(): void {
    for (const barrier of this.barriers.values()) {
      if (barrier.release.length === 0) continue;
      if ([...this.alive].every((id) => barrier.arrived.has(id))) {
        for (const release of barrier.release.splice(0)) release();
      }
    }
  }
}
