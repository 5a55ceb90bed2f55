// The facts about a run as a whole: who takes part, whether it is over, how long it took.
import type { EventOf } from '@racelab/shared';
import { memoOnLog, type EventLog } from './memo.js';

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

export const runSummary = memoOnLog((events: EventLog): RunSummary => {
  let started: RunSummary['started'] = null;
  let finished: RunSummary['finished'] = null;
  let failed: RunSummary['failed'] = null;
  let lastMs = 0;
  const seen = new Set<string>();
  const extra: string[] = [];
  for (const e of events) {
    lastMs = Math.max(lastMs, e.atMs);
    if (e.type === 'run-started') started ??= e;
    else if (e.type === 'run-finished') finished ??= e;
    else if (e.type === 'run-failed') failed ??= e;
    if (e.workerId !== null && !seen.has(e.workerId)) {
      seen.add(e.workerId);
      extra.push(e.workerId);
    }
  }
  const roster = started?.workers ?? [];
  const workers = [...roster, ...extra.filter((w) => !roster.includes(w))];
  const end = failed ?? finished;
  const phase: RunPhase = failed ? 'failed' : finished ? 'finished' : events.length > 0 ? 'running' : 'empty';
  return { phase, started, workers, finished, failed, lastMs, endMs: end ? Math.max(end.atMs, lastMs) : null };
});

export { inOrder } from './memo.js';

/** Lane index of a worker id, used for its colour; -1 when unknown. */
export function workerIndex(summary: RunSummary, workerId: string | null): number {
  return workerId === null ? -1 : summary.workers.indexOf(workerId);
}
