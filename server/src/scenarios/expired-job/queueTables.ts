// The run's tables: pg-boss's own, installed by the server in the run's schema (so runs never
// share a queue, and the schema's drop takes them), and the job's side effect, where the verdict
// reads it: each charge of the card is a row of `charges`, stamped by PostgreSQL
// (clock_timestamp()) as it lands. How many times pg-boss started the job is read from its row.
import { POSTGRES_STORE } from '@racelab/shared';
import type { Observed, RunStores } from '../types.js';
import { QUEUE } from './jobQueue.js';
import { createChargesTable } from '../kit/chargesTable.js';

/**
 * Installs pg-boss in the run's schema and creates its queue, as the server's user (a run's
 * role may use the tables the server makes there, not make a queue's partition itself); then
 * the charges, which take each idempotency key once (a NULL key is never refused for it).
 * Returns the schema's name, which each worker's pg-boss is given.
 */
export async function createQueueTables(stores: RunStores): Promise<string> {
  const { default: Boss } = await import('pg-boss');
  const { rows } = await stores.sql<{ schema: string }>('select current_schema() as schema');
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('the run has no schema');
  await stores.sql(Boss.getConstructionPlans(schema));
  const boss = new Boss({ db: { executeSql: (text, values) => stores.sql(text, values) }, schema });
  await boss.createQueue(QUEUE);
  await createChargesTable(stores);
  return schema;
}

/** How many times the card was charged, from the rows that landed. */
export async function chargeCount(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>('select count(*)::int as n from charges');
  return rows[0]?.n ?? 0;
}

/** The job as pg-boss's own table holds it: its state, and how many times it was started (retry_count + 1 once started). */
export async function jobRow(stores: RunStores): Promise<{ state: string; starts: number } | null> {
  const { rows } = await stores.sql<{ state: string; starts: number }>(
    `select state::text as state, case when started_on is null then 0 else retry_count + 1 end as starts
     from job where name = $1 order by created_on limit 1`,
    [QUEUE],
  );
  return rows[0] ?? null;
}

/** The charges and the job, for the timeline's truth lanes. */
export async function observeCharges(stores: RunStores): Promise<Observed> {
  const { rows } = await stores.sql<{ worker: string; attempt: number }>('select worker, attempt from charges order by charged_at, id');
  const job = await jobRow(stores);
  const charges = rows.map((r) => `${r.worker} (attempt ${r.attempt})`).join(', ');
  return {
    [POSTGRES_STORE]: {
      charges: rows.length === 0 ? null : `${rows.length} · ${charges}`,
      job: job === null ? null : `${job.state} · started ${job.starts}×`,
    },
  };
}
