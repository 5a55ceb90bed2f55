// The fence-check tables, and the ground truth read from them. Each ordering has its own
// document row. A trigger records every change of a row's content as PostgreSQL applies
// it (who wrote, whose write it replaced, the fence it carried, when), whoever sends it;
// Redis records every grant of the lease, with its own clock, in the script that makes it.
// A write is stale when a newer grant to another worker came before it: the verdict
// counts what the database did against what Redis granted. Both stores read the host's
// clock, the same one.
import { createStampedTable } from '../kit/stampedRows.js';
import type { RunStores } from '../types.js';
import { ORDERINGS, OUTCOMES, grantsKey, type Ordering } from './orderings.js';

export async function createLedger(stores: RunStores): Promise<void> {
  await stores.sql(`create table documents (
    id text primary key,
    content text not null,
    writer text not null,
    fence int not null default 0,
    lease_id text)`);
  for (const o of ORDERINGS) {
    await stores.sql(`insert into documents (id, content, writer) values ($1, 'first draft', 'nobody')`, [o.id]);
  }
  // Every write attempt as the harness made it, in the write's own transaction.
  await createStampedTable(stores, 'attempts', [
    'id serial primary key',
    'ordering text not null',
    'worker text not null',
    'fence int not null',
    'accepted boolean not null',
  ]);
  // Every change of a row's content, as the trigger below records it.
  await createStampedTable(stores, 'changes', [
    'id serial primary key',
    'ordering text not null',
    'writer text not null',
    'replaced text not null',
    'fence int not null',
  ]);
  await stores.sql(`create function record_change() returns trigger language plpgsql as $$
    begin
      if new.writer is distinct from old.writer or new.content is distinct from old.content then
        insert into changes (ordering, writer, replaced, fence) values (new.id, new.writer, old.writer, new.fence);
      end if;
      return new;
    end $$`);
  await stores.sql('create trigger record_change after update on documents for each row execute function record_change()');
}

interface Grant {
  fence: number;
  worker: string;
  /** When Redis granted it, in ms since the epoch (microsecond precision). */
  atMs: number;
}

/** An ordering's grants as its granting script recorded them. */
async function grantsOf(stores: RunStores, ordering: string): Promise<Grant[]> {
  const recorded = await stores.redis.hgetall(stores.key(grantsKey(ordering)));
  return Object.entries(recorded).map(([fence, value]) => {
    const [worker, seconds, micros] = value.split(' ');
    return { fence: Number(fence), worker: worker!, atMs: Number(seconds) * 1000 + Number(micros) / 1000 };
  });
}

/** Stale: when `worker` acted at `atMs`, another worker already held a newer grant than its own. */
function staleAt(grants: Grant[], worker: string, atMs: number): boolean {
  const own = Math.max(0, ...grants.filter((g) => g.worker === worker).map((g) => g.fence));
  return grants.some((g) => g.worker !== worker && g.fence > own && g.atMs < atMs);
}

/** What each ordering's check did with worker-1's stale write, by metric name. */
export async function measureOutcomes(stores: RunStores, staleWorker: string): Promise<Record<string, string>> {
  const documents = await stores.sql<{ id: string; writer: string }>('select id, writer from documents');
  // When each of the stale worker's changes and attempts happened, in ms since the epoch.
  const timesOf = (sql: string) => stores.sql<{ ordering: string; at_ms: number }>(sql, [staleWorker]);
  const changes = await timesOf('select ordering, extract(epoch from at)::float8 * 1000 as at_ms from changes where writer = $1');
  const attempts = await timesOf('select ordering, extract(epoch from at)::float8 * 1000 as at_ms from attempts where worker = $1');
  const outcome = async (o: Ordering): Promise<string> => {
    const row = documents.rows.find((r) => r.id === o.id);
    if (!row) return OUTCOMES.none;
    const grants = await grantsOf(stores, o.id);
    const stale = (r: { ordering: string; at_ms: number }): boolean => r.ordering === o.id && staleAt(grants, staleWorker, r.at_ms);
    if (changes.rows.some(stale)) return row.writer === staleWorker ? OUTCOMES.letThrough : OUTCOMES.replaced;
    return attempts.rows.some(stale) ? OUTCOMES.refused : OUTCOMES.none;
  };
  const outcomes = await Promise.all(ORDERINGS.map(async (o) => [o.metric, await outcome(o)] as const));
  return Object.fromEntries(outcomes);
}

/** Each ordering's row as a reader sees it now. */
export async function observeDocuments(stores: RunStores): Promise<Record<string, string>> {
  const { rows } = await stores.sql<{ id: string; writer: string; fence: number; lease_id: string | null }>(
    'select id, writer, fence, lease_id from documents',
  );
  return Object.fromEntries(
    rows.map((r) => {
      const parts = [
        r.writer,
        ...(r.fence > 0 ? [`fence ${r.fence}`] : []),
        ...(r.lease_id ? [`lease of ${r.lease_id.split(':')[0]}`] : []),
      ];
      return [r.id, parts.join(' · ')];
    }),
  );
}
