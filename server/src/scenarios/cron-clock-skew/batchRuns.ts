// The batch_runs table: one row per run of the invoice batch, with the slot the node
// believed it was running, stamped by PostgreSQL's clock at its start and end. The verdict
// counts these rows and their overlaps, not what the nodes said. A row without an end
// counts as running to the end of the run: a node that died mid-batch may still be billing.
import { createSpanTable, mostAtOnceSql } from '../kit/spanRows.js';
import type { RunStores } from '../types.js';

export async function createBatchRuns(stores: RunStores): Promise<void> {
  await createSpanTable(stores, 'batch_runs', ['id serial primary key', 'node text not null', 'slot text not null']);
}

/** Which nodes ran each slot's batch, in the order they started. */
export async function observeBatchRuns(stores: RunStores): Promise<Record<string, string | null>> {
  const { rows } = await stores.sql<{ slot: string; nodes: string }>(
    `select slot, string_agg(node, ', ' order by id) as nodes from batch_runs group by slot order by min(id)`,
  );
  if (rows.length === 0) return { 'batch runs': null };
  return { 'batch runs': rows.map((r) => `${r.slot}: ${r.nodes}`).join(' · ') };
}

/** The most runs any one slot got. */
export async function runsPerSlot(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>(
    'select coalesce(max(n), 0)::int as n from (select count(*) as n from batch_runs group by slot) per_slot',
  );
  return rows[0]?.n ?? 0;
}

/** The most batch runs going at once: at each row's start, the rows started and not yet ended. */
export async function mostRunsAtOnce(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ all_rows: number }>(mostAtOnceSql('batch_runs'));
  return rows[0]?.all_rows ?? 0;
}
