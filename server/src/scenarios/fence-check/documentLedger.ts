// The fence-check tables, and the ground truth read from them. Each ordering has its own
// document row. A trigger records every change of a row's content as PostgreSQL applies
// it — who wrote, whose write it replaced, and whether a newer grant of that ordering
// already existed (stale) — so the verdict counts what the database did.
import type { RunStores } from '../types.js';
import { ORDERINGS, OUTCOMES, type Ordering } from './orderings.js';

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
  // Grants in order, per ordering, and every write attempt as the harness made it.
  await stores.sql(`create table grants (
    grant_no serial primary key,
    ordering text not null,
    worker text not null)`);
  await stores.sql(`create table attempts (
    id serial primary key,
    ordering text not null,
    worker text not null,
    grant_no int not null,
    accepted boolean not null,
    stale boolean not null)`);
  await stores.sql(`create table changes (
    id serial primary key,
    ordering text not null,
    writer text not null,
    replaced text not null,
    stale boolean not null,
    at timestamptz not null default clock_timestamp())`);
  await stores.sql(`create function record_change() returns trigger language plpgsql as $$
    begin
      if new.writer is distinct from old.writer or new.content is distinct from old.content then
        insert into changes (ordering, writer, replaced, stale)
        values (new.id, new.writer, old.writer, exists (
          select 1 from grants g
           where g.ordering = new.id
             and g.grant_no > (select max(grant_no) from grants where ordering = new.id and worker = new.writer)));
      end if;
      return new;
    end $$`);
  await stores.sql('create trigger record_change after update on documents for each row execute function record_change()');
}

/** What each ordering's check did with worker-1's stale write, by metric name. */
export async function measureOutcomes(stores: RunStores, staleWorker: string): Promise<Record<string, string>> {
  const { rows } = await stores.sql<{ id: string; writer: string; taken: boolean; tried: boolean }>(
    `select d.id, d.writer,
            exists (select 1 from changes c where c.ordering = d.id and c.writer = $1 and c.stale) as taken,
            exists (select 1 from attempts a where a.ordering = d.id and a.worker = $1 and a.stale) as tried
       from documents d`,
    [staleWorker],
  );
  const outcome = (o: Ordering): string => {
    const row = rows.find((r) => r.id === o.id);
    if (!row) return OUTCOMES.none;
    if (row.taken) return row.writer === staleWorker ? OUTCOMES.letThrough : OUTCOMES.replaced;
    return row.tried ? OUTCOMES.refused : OUTCOMES.none;
  };
  return Object.fromEntries(ORDERINGS.map((o) => [o.metric, outcome(o)]));
}

/** Each ordering's row as a reader sees it now. */
export async function observeDocuments(stores: RunStores): Promise<Record<string, string>> {
  const { rows } = await stores.sql<{ id: string; writer: string; fence: number; lease_id: string | null }>(
    'select id, writer, fence, lease_id from documents',
  );
  return Object.fromEntries(
    rows.map((r) => {
      const parts = [r.writer, ...(r.fence > 0 ? [`fence ${r.fence}`] : []), ...(r.lease_id ? [`lease of ${r.lease_id.split(':')[0]}`] : [])];
      return [r.id, parts.join(' · ')];
    }),
  );
}
