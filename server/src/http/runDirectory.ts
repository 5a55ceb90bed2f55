// Every run the server knows: the ones going and, for a while, the ones that ended, so a
// page that lost its socket can resume a run's stream and see how it really ended.
import type { Run } from '../runs/run.js';

/** Ended runs kept for pages that reconnect. */
const KEEP_ENDED_RUNS = 200;
/** How long a run whose page has gone waits for it to come back before it is cancelled, in ms. */
export const ORPHAN_GRACE_MS = 1500;

export class RunDirectory {
  private readonly runs = new Map<string, Run>();
  private readonly watchers = new Map<string, number>();
  private readonly orphanTimers = new Map<string, NodeJS.Timeout>();

  /** Runs still going. */
  get active(): number {
    let n = 0;
    for (const run of this.runs.values()) if (!run.done) n++;
    return n;
  }

  get(runId: string): Run | undefined {
    return this.runs.get(runId);
  }

  /** Registers a new run; the oldest ended runs are forgotten past the limit. */
  add(run: Run): void {
    this.runs.set(run.id, run);
    const ended = [...this.runs.values()].filter((r) => r.done);
    for (const old of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED_RUNS))) this.runs.delete(old.id);
  }

  /** A page is watching this run. */
  watch(runId: string): void {
    this.watchers.set(runId, (this.watchers.get(runId) ?? 0) + 1);
    clearTimeout(this.orphanTimers.get(runId));
    this.orphanTimers.delete(runId);
  }

  /** A page stopped watching; a run nobody watches any more is cancelled after a grace period. */
  unwatch(runId: string): void {
    const left = (this.watchers.get(runId) ?? 1) - 1;
    this.watchers.set(runId, left);
    const run = this.runs.get(runId);
    if (left > 0 || !run || run.done) return;
    this.orphanTimers.set(
      runId,
      setTimeout(() => {
        this.orphanTimers.delete(runId);
        if ((this.watchers.get(runId) ?? 0) === 0) run.cancel('the page that started the run went away');
      }, ORPHAN_GRACE_MS),
    );
  }

  /** Cancels every run still going. */
  cancelAll(reason: string): void {
    for (const timer of this.orphanTimers.values()) clearTimeout(timer);
    for (const run of this.runs.values()) if (!run.done) run.cancel(reason);
  }
}
