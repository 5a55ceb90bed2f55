// The facts about a run as a whole: who takes part, whether it is over, how long it took.
import type { EventOf } from '@racelab/shared';
import { foldOnLog } from './memo.js';

export type RunPhase = 'empty' | 'running' | 'finished' | 'failed';

export interface RunSummary {
  phase: RunPhase;
  started: EventOf<'run-started'> | null;
  /** Worker ids in lane order: the run's roster, then any other worker seen in the log. */
  workers: string[];
  finished: EventOf<'run-finished'> | null;
  failed: EventOf<'run-failed'> | null;
  /** Latest event time seen. */
  lastMs: number;
  /** When the run ended (finished or failed); null while it is running. */
  endMs: number | null;
}

interface SummaryState {
  started: RunSummary['started'];
  finished: RunSummary['finished'];
  failed: RunSummary['failed'];
  lastMs: number;
  seen: Set<string>;
  /** Workers in the order their first event came. */
  extra: string[];
}

export const runSummary = foldOnLog<SummaryState, RunSummary>({
  init: () => ({ started: null, finished: null, failed: null, lastMs: 0, seen: new Set(), extra: [] }),
  step(s, e) {
    s.lastMs = Math.max(s.lastMs, e.atMs);
    if (e.type === 'run-started') s.started ??= e;
    else if (e.type === 'run-finished') s.finished ??= e;
    else if (e.type === 'run-failed') s.failed ??= e;
    if (e.workerId !== null && !s.seen.has(e.workerId)) {
      s.seen.add(e.workerId);
      s.extra.push(e.workerId);
    }
  },
  finish({ started, finished, failed, lastMs, extra }, events) {
    const roster = started?.workers ?? [];
    const workers = [...roster, ...extra.filter((w) => !roster.includes(w))];
    const end = failed ?? finished;
    const phase: RunPhase = failed ? 'failed' : finished ? 'finished' : events.length > 0 ? 'running' : 'empty';
    return { phase, started, workers, finished, failed, lastMs, endMs: end ? Math.max(end.atMs, lastMs) : null };
  },
});

/** Lane index of a worker id, used for its colour; -1 when unknown. */
export function workerIndex(summary: RunSummary, workerId: string | null): number {
  return workerId === null ? -1 : summary.workers.indexOf(workerId);
}
