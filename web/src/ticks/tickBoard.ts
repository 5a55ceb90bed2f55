// The ticks a run's lanes draw: per run, the events that will be marks in a worker's lane, that
// arrived and that the lane has not drawn from the run's log yet. The page's arrivals
// (../store/arrivals.ts) keep them here as they hand events to the log, and the tick worker
// (tickWorker.ts) as each message of the socket it holds arrives; an event that comes again (a
// stream resumed after a reconnect) is kept once (by seq).
// Pure: no canvas, no socket; ArrivalTicks or the worker draws what `lane` returns.

/** An event that draws a mark in its worker's lane: all a tick needs of it. */
export interface Tick {
  seq: number;
  atMs: number;
  workerId: string;
}

/**
 * How long a run's ticks are kept, in the run's ms behind its newest: a lane draws its log
 * within a few frames, and a run whose lanes are not on screen keeps no more than this.
 */
export const KEPT_MS = 1000;

interface RunTicks {
  /** By seq, newer than `throughSeq`. */
  ticks: Map<number, Tick>;
  /** The lanes drew the run's log up to and including this seq. */
  throughSeq: number;
  newestMs: number;
}

export class TickBoard {
  private readonly runs = new Map<string, RunTicks>();
  /** Runs forgotten for good (ended off screen): a late event from the socket does not bring them back. */
  private readonly gone = new Set<string>();

  /** Adds the ticks not drawn yet; true when one was new. */
  add(runId: string, ticks: readonly Tick[]): boolean {
    if (this.gone.has(runId)) return false;
    let run = this.runs.get(runId);
    if (!run) this.runs.set(runId, (run = { ticks: new Map(), throughSeq: -1, newestMs: 0 }));
    let added = false;
    for (const t of ticks) {
      if (t.seq <= run.throughSeq || run.ticks.has(t.seq)) continue;
      run.ticks.set(t.seq, t);
      run.newestMs = Math.max(run.newestMs, t.atMs);
      added = true;
    }
    if (added) for (const [seq, t] of run.ticks) if (t.atMs < run.newestMs - KEPT_MS) run.ticks.delete(seq);
    return added;
  }

  /** The lanes drew the run's log up to and including `seq`; true when a tick went. */
  drawnThrough(runId: string, seq: number): boolean {
    let run = this.runs.get(runId);
    if (!run) {
      if (this.gone.has(runId)) return false;
      this.runs.set(runId, (run = { ticks: new Map(), throughSeq: -1, newestMs: 0 }));
    }
    if (seq <= run.throughSeq) return false;
    run.throughSeq = seq;
    let removed = false;
    for (const s of run.ticks.keys())
      if (s <= seq) {
        run.ticks.delete(s);
        removed = true;
      }
    return removed;
  }

  /** Forgets the run for good. */
  forget(runId: string): void {
    this.runs.delete(runId);
    this.gone.add(runId);
  }

  /** A lane's ticks, oldest seq first. */
  lane(runId: string, workerId: string): Tick[] {
    const run = this.runs.get(runId);
    if (!run) return [];
    const out: Tick[] = [];
    for (const t of run.ticks.values()) if (t.workerId === workerId) out.push(t);
    return out.sort((a, b) => a.seq - b.seq);
  }
}
