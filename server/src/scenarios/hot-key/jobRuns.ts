// The job_runs table: one row per job, stamped by PostgreSQL's clock when the job starts
// and when it ends. What the timeline's truth lane shows and what the wall time is read from.
import type { RunStores } from '../types.js';

export async function createJobRuns(stores: RunStores): Promise<void> {
  await stores.sql(`create table job_runs (
    job text primary key,
    entity text not null,
    worker text not null,
    started_at timestamptz not null default clock_timestamp(),
    finished_at timestamptz)`);
}

/** Jobs done and running, and the span from the first start to the last end so far. */
export async function observeJobRuns(stores: RunStores): Promise<Record<string, string | null>> {
  const { rows } = await stores.sql<{ done: number; running: number; span_ms: number | null }>(
    `select count(finished_at)::int as done,
            (count(*) - count(finished_at))::int as running,
            round(extract(epoch from max(finished_at) - min(started_at)) * 1000)::int as span_ms
       from job_runs`,
  );
  const row = rows[0];
  if (!row || row.done + row.running === 0) return { 'job runs': null };
  const span = row.span_ms === null ? '' : ` · first start to last end ${row.span_ms} ms`;
  return { 'job runs': `${row.done} done, ${row.running} running${span}` };
}

export interface JobRunTruth {
  done: number;
  /** The most jobs that ran strictly one after another (each started after the last ended). */
  longestChain: number;
}

export async function measureJobRuns(stores: RunStores): Promise<JobRunTruth> {
  const { rows } = await stores.sql<{ started: number; finished: number | null }>(
    `select extract(epoch from started_at)::float8 * 1000 as started,
            extract(epoch from finished_at)::float8 * 1000 as finished
       from job_runs`,
  );
  const finished = rows.filter((r): r is { started: number; finished: number } => r.finished !== null);
  // The most intervals that do not overlap: take the one that ends first, again and again.
  let longestChain = 0;
  let lastEnd = -Infinity;
  for (const r of finished.sort((a, b) => a.finished - b.finished)) {
    if (r.started < lastEnd) continue;
    longestChain++;
    lastEnd = r.finished;
  }
  return { done: finished.length, longestChain };
}
