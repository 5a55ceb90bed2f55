// A table of spans: one row per piece of work, stamped by PostgreSQL's clock when it starts
// and when it ends. A row without an end counts as running to the end of the run (work that
// died midway may still be going, as far as anyone can tell), so a lost end can only add overlap.
import type { RunStores } from '../types.js';

/** Creates `table` with the given column definitions, then `started_at` and `finished_at`. */
export async function createSpanTable(stores: RunStores, table: string, columns: string[]): Promise<void> {
  const stamps = ['started_at timestamptz not null default clock_timestamp()', 'finished_at timestamptz'];
  await stores.sql(`create table ${table} (${[...columns, ...stamps].join(', ')})`);
}

/** How the most rows of `table` at once are observed, as a metric's source says it. */
export function mostAtOnceSource(table: string): string {
  return `PostgreSQL: most ${table} rows whose spans (clock_timestamp() at start and end; no end: still running) overlap`;
}

/**
 * SQL for the most rows of `table` going at once (`all_rows`): at each row's start, the rows
 * started and not yet ended. With `per`, also the most of one value of that column (`same_per`).
 */
export function mostAtOnceSql(table: string, per?: string): string {
  const atOnce = (alike: string) => `coalesce(max((select count(*) from spans o where ${alike}o.s <= r.s and o.f > r.s)), 0)::int`;
  const spans = `select ${per ? `${per} as per, ` : ''}started_at as s, coalesce(finished_at, 'infinity') as f from ${table}`;
  return `with spans as (${spans}) select ${atOnce('')} as all_rows${per ? `, ${atOnce('o.per = r.per and ')} as same_per` : ''} from spans r`;
}
