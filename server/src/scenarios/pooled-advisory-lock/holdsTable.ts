// The guarded work, where the verdict reads it: each run of the invoices is a row of `holds`,
// from its start to its end on PostgreSQL's clock, with the backend the pooler gave it.
import { POSTGRES_STORE } from '@racelab/shared';
import type { Observed, RunStores } from '../types.js';

export async function createHoldsTable(stores: RunStores): Promise<void> {
  await stores.sql(`create table holds (
    id serial primary key,
    worker text not null,
    backend_pid int not null,
    started_at timestamptz not null default clock_timestamp(),
    finished_at timestamptz
  )`);
}

/** Most runs of the invoices under way at once (one never finished counts to the end). */
export async function maxConcurrentHolders(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>(`select coalesce(max((
      select count(*) from holds o
      where o.started_at <= h.started_at and (o.finished_at is null or o.finished_at > h.started_at)
    )), 0)::int as n from holds h`);
  return rows[0]?.n ?? 0;
}

/** How many PostgreSQL backends the workers' pooled connections were given. */
export async function backendsUsed(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>('select count(distinct backend_pid)::int as n from holds');
  return rows[0]?.n ?? 0;
}

export async function observeHolds(stores: RunStores): Promise<Observed> {
  const { rows } = await stores.sql<{ worker: string; pid: number }>(
    'select worker, backend_pid as pid from holds where finished_at is null order by started_at',
  );
  return { [POSTGRES_STORE]: { holders: rows.length === 0 ? null : rows.map((r) => `${r.worker} (backend ${r.pid})`).join(', ') } };
}
