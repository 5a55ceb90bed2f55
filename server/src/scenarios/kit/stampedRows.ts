// A table of facts, each row stamped by PostgreSQL's clock as it goes in (clock_timestamp(),
// the host's wall clock): a verdict that compares when things happened reads the database's
// stamps, never a worker's word. (A fact with an end as well: spanRows.ts.)
import type { RunStores } from '../types.js';

/** Creates `table` with the given column definitions, then `stamp`: when the row was inserted. */
export async function createStampedTable(stores: RunStores, table: string, columns: string[], stamp = 'at'): Promise<void> {
  await stores.sql(`create table ${table} (${[...columns, `${stamp} timestamptz not null default clock_timestamp()`].join(', ')})`);
}
