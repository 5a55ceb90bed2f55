// The statement row the job writes, the lease grants as the lease service numbered them,
// and every write attempt as PostgreSQL decided it: what the verdict reads.
import type { RunStores } from '../types.js';

export async function createStatementTables(stores: RunStores): Promise<void> {
  await stores.sql(`create table statements (
    id int primary key,
    content text not null,
    fence int not null,
    writer text not null)`);
  await stores.sql(`insert into statements values (1, 'last night''s statement', 0, 'nobody')`);
  await stores.sql(`create table grants (
    grant_no serial primary key,
    worker text not null,
    granted_at timestamptz not null default clock_timestamp())`);
  await stores.sql(`create table write_attempts (
    id serial primary key,
    worker text not null,
    grant_no int not null,
    fence int not null,
    accepted boolean not null,
    stale boolean not null,
    at timestamptz not null default clock_timestamp())`);
}

export async function observeStatement(stores: RunStores): Promise<Record<string, string | null>> {
  const { rows } = await stores.sql<{ writer: string; fence: number }>('select writer, fence from statements where id = 1');
  const row = rows[0];
  return { statement: row ? `${row.writer} · fence ${row.fence}` : null };
}

export interface StatementTruth {
  staleWritesAccepted: number;
  staleWritesRejected: number;
  finalWriter: string;
}

export async function measureStatement(stores: RunStores): Promise<StatementTruth> {
  const attempts = await stores.sql<{ accepted: number; rejected: number }>(
    `select count(*) filter (where stale and accepted)::int as accepted,
            count(*) filter (where stale and not accepted)::int as rejected
       from write_attempts`,
  );
  const row = await stores.sql<{ writer: string }>('select writer from statements where id = 1');
  return {
    staleWritesAccepted: attempts.rows[0]?.accepted ?? 0,
    staleWritesRejected: attempts.rows[0]?.rejected ?? 0,
    finalWriter: row.rows[0]?.writer ?? 'nobody',
  };
}
