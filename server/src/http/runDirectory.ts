// Every run the server knows: the ones going and, for a while, the ones that ended, so a
// page that lost its socket can resume a run's stream and see how it really ended.
import { randomBytes } from 'node:crypto';
import type { Run } from '../runs/run.js';

/** Ended runs kept for pages that reconnect: at most this many, holding at most so many events in all. */
const KEEP_ENDED_RUNS = 200;
const KEEP_ENDED_EVENTS = 200_000;
/** How long a run whose page has gone waits for it to come back before it is cancelled, in ms. */
export const ORPHAN_GRACE_MS = 1000;

export class RunDirectory {
  private readonly runs = new Map<string, Run>();
  private readonly watchers = new Map<string, number>();
  private readonly orphanTimers = new Map<string, NodeJS.Timeout>();
  /** Each run's control key: who holds it may stall, kill and cancel the run (see socketServer). */
  private readonly controlKeys = new Map<string, string>();

  /** Runs still going or still cleaning up after themselves. */
  get active(): number {
    let n = 0;
    for (const run of this.runs.values()) if (!run.isSettled) n++;
    return n;
  }

  /** Worker processes of the runs still going or cleaning up. */
  get workers(): number {
    let n = 0;
    for (const run of this.runs.values()) if (!run.isSettled) n += run.workerCount;
    return n;
  }

  /** Resolves once every run has settled (workers gone, keys and schema dropped), or after `graceMs`. */
  async settled(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.runs.values()].map((run) => run.settled)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
  }

  get(runId: string): Run | undefined {
    return this.runs.get(runId);
  }

  /** Registers a new run and returns its control key; the oldest ended runs are forgotten past the limit. */
  add(run: Run): string {
    this.runs.set(run.id, run);
    const controlKey = randomBytes(16).toString('hex');
    this.controlKeys.set(run.id, controlKey);
    const ended = [...this.runs.values()].filter((r) => r.isSettled);
    let events = ended.reduce((n, r) => n + r.events.length, 0);
    for (const [i, old] of ended.entries()) {
      if (ended.length - i <= KEEP_ENDED_RUNS && events <= KEEP_ENDED_EVENTS) break;
      events -= old.events.length;
      this.runs.delete(old.id);
      this.watchers.delete(old.id);
      this.controlKeys.delete(old.id);
    }
    return controlKey;
  }

  /** Does this key control that run? */
  controls(runId: string, key: string | undefined): boolean {
    return key !== undefined && this.controlKeys.get(runId) === key;
  }

  /** A page is watching this run. */
  watch(runId: string): void {
    this.watchers.set(runId, (this.watchers.get(runId) ?? 0) + 1);
    clearTimeout(this.orphanTimers.get(runId));
    this.orphanTimers.delete(runId);
  }

  /** A page stopped watching; a run nobody watches any more is cancelled after a grace period. */
  unwatch(runId: string): void {
    const left = Math.max(0, (this.watchers.get(runId) ?? 1) - 1);
    if (left > 0) this.watchers.set(runId, left);
    else this.watchers.delete(runId);
    const run = this.runs.get(runId);
    if (left > 0 || !run || run.done) return;
    this.orphanTimers.set(
      runId,
      setTimeout(() => {
        this.orphanTimers.delete(runId);
        if ((this.watchers.get(runId) ?? 0) === 0) run.cancel('the page that started the run went away');
      }, ORPHAN_GRACE_MS).unref(),
    );
  }

  /** Cancels every run still going. */
  cancelAll(reason: string): void {
    for (const timer of this.orphanTimers.values()) clearTimeout(timer);
    this.orphanTimers.clear();
    for (const run of this.runs.values()) if (!run.done) run.cancel(reason);
  }
}
