// Where the verdict reads a run: each firing of a replica's croner job is a row of `firings`,
// each report sent (the job's side effect) a row of `reports`, stamped by PostgreSQL's clock
// (clock_timestamp()) at its start and end. One slot is due per run, so every report row is
// one more send of that slot's report. unique-slot-row's claims are rows of `slot_claims`,
// which takes each claim once; every run has the table, so a learner's edit of every-replica can claim too.
import { POSTGRES_STORE, REDIS_STORE } from '@racelab/shared';
import { createSpanTable } from '../kit/spanRows.js';
import type { Observed, RunStores } from '../types.js';
import { FIRST_SLOT_KEY, lockKeyAt } from './keys.js';

export async function createReportTables(stores: RunStores): Promise<void> {
  // replica_clock: what the replica's own clock read as croner fired; fired_at: PostgreSQL's.
  await stores.sql(`create table firings (
    id serial primary key,
    replica text not null,
    slot text not null,
    replica_clock timestamptz not null,
    fired_at timestamptz not null default clock_timestamp()
  )`);
  await createSpanTable(stores, 'reports', ['id serial primary key', 'replica text not null', 'slot text not null']);
  await stores.sql(
    'create table slot_claims (claim text primary key, replica text not null, claimed_at timestamptz not null default clock_timestamp())',
  );
}

/** Reports sent: one slot is due per run, so every row is a send of its report. */
export async function reportsSent(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>('select count(*)::int as n from reports');
  return rows[0]?.n ?? 0;
}

/** How many times the replicas' croner jobs fired, as they wrote it on firing. */
export async function firings(stores: RunStores): Promise<number> {
  const { rows } = await stores.sql<{ n: number }>('select count(*)::int as n from firings');
  return rows[0]?.n ?? 0;
}

/** The firings, the reports and the slot's lock, for the timeline's truth lanes. */
export async function observeReports(stores: RunStores): Promise<Observed> {
  const fired = await stores.sql<{ replica: string }>('select replica from firings order by fired_at, id');
  const sent = await stores.sql<{ slot: string; replicas: string }>(
    `select slot, string_agg(replica, ', ' order by id) as replicas from reports group by slot order by min(id)`,
  );
  const firstSlotMs = Number((await stores.redis.get(stores.key(FIRST_SLOT_KEY))) ?? Number.NaN);
  const lock = Number.isFinite(firstSlotMs) ? lockKeyAt(firstSlotMs) : null;
  const holder = lock === null ? null : await stores.redis.get(stores.key(lock));
  return {
    [POSTGRES_STORE]: {
      firings: fired.rows.length === 0 ? null : `${fired.rows.length} · ${fired.rows.map((r) => r.replica).join(', ')}`,
      reports: sent.rows.length === 0 ? null : sent.rows.map((r) => `${r.slot}: ${r.replicas}`).join(' · '),
    },
    [REDIS_STORE]: { 'slot lock': holder === null ? null : `${lock} · ${holder}` },
  };
}
