// The job_runs table: one row per job, stamped by PostgreSQL's clock when the job starts
// and when it ends. What the timeline's truth lane shows, and what every figure is read
// from: how many jobs ran at once is the most rows whose spans overlap, computed in SQL.
// A row without an end counts as running to the end of the run (a job that died mid-work
// may still be working, as far as anyone can tell), so a lost end line can only add overlap.
import { createSpanTable, mostAtOnceSql } from '../kit/spanRows.js';
import type { RunStores } from '../types.js';

export async function createJobRuns(stores: RunStores): Promise<void> {
  await createSpanTable(stores, 'job_runs', ['job text primary key', 'entity text not null', 'worker text not null']);
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
  /** The most rows running at once, and the most of one entity. */
  maxParallel: number;
  maxParallelPerEntity: number;
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
  // At each row's start, the rows already started and not yet ended: the most at any instant.
  const overlaps = await stores.sql<{ all_rows: number; same_per: number }>(mostAtOnceSql('job_runs', 'entity'));
  const { all_rows: maxParallel, same_per: maxParallelPerEntity } = overlaps.rows[0]!;
  return { done: finished.length, longestChain, maxParallel, maxParallelPerEntity };
}
