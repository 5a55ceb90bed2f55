// The fenced ledger: the guarded row's own record of every write that reaches it, and the
// lease's grants as PostgreSQL numbered them. A trigger the run's setup installs logs each
// UPDATE statement of the guarded table, whoever sends it and by whatever path, with the
// sender (the session's application_name, set by the worker's runtime), whether it changed
// the row, the writer and fence it wrote, and clock_timestamp(). The verdict reads this
// log and the grants, never what a worker says it wrote.
import type { MetricSpec } from '@racelab/shared';
import type { RunStores, WorkerContext } from '../types.js';

/** Checkpoint right after a write reached PostgreSQL, before the worker says anything about it. */
export const AFTER_WRITE = 'after-write';

/** The table of the log, one row per UPDATE statement (by `worker`: the sender). */
export const WRITES_TABLE = 'row_writes';

/** The sender as the worker's runtime named its session: "racelab-worker <schema> <worker>". */
export const SESSION_WORKER = `regexp_replace(current_setting('application_name'), '^.* ', '')`;

/**
 * Creates the grants table and the log of writes to `table` (which has `writer` and `fence`
 * columns and one row), with the statement-level trigger that fills it.
 */
export async function createFencedLedger(stores: RunStores, table: string): Promise<void> {
  // The lease service's grants in order; the grantee is the session that records it.
  await stores.sql(`create table grants (
    grant_no bigserial primary key,
    worker text not null default ${SESSION_WORKER},
    granted_at timestamptz not null default clock_timestamp())`);
  await stores.sql(`create table ${WRITES_TABLE} (
    id bigserial primary key,
    worker text not null,
    accepted boolean not null,
    writer text,
    fence bigint,
    at timestamptz not null default clock_timestamp())`);
  // Statement-level: it fires for every UPDATE, also one whose WHERE matched no row (a
  // rejected write); the transition table holds the rows it changed, if any.
  await stores.sql(`create function log_row_write() returns trigger
    language plpgsql set search_path from current as $$
    begin
      insert into ${WRITES_TABLE} (worker, accepted, writer, fence)
      select ${SESSION_WORKER}, count(*) > 0, max(writer), max(fence) from changed;
      return null;
    end $$`);
  await stores.sql(`create trigger ${WRITES_TABLE} after update on ${table}
    referencing new table as changed for each statement execute function log_row_write()`);
}

/** Records this worker's grant of the lease; returns its number, PostgreSQL's order of grants. */
export async function recordGrant(ctx: WorkerContext): Promise<number> {
  const { rows } = await ctx.pg.query<{ grant_no: string }>('insert into grants default values returning grant_no');
  return Number(rows[0]!.grant_no);
}

/**
 * Sends one UPDATE of the guarded row; returns the rows it changed. A fault plan may kill
 * the worker right after it, before any word of it: the log has it already.
 */
export async function writeRow(ctx: WorkerContext, sql: string, values: unknown[]): Promise<number> {
  const updated = (await ctx.pg.query(sql, values)).rowCount ?? 0;
  await ctx.checkpoint(AFTER_WRITE);
  ctx.signal(`wrote:${ctx.workerId}`);
  return updated;
}

export interface LedgerTruth {
  /** Writes that changed the row while a grant newer than their sender's had been issued. */
  staleWritesAccepted: number;
  /** UPDATEs that changed nothing, sent while a grant newer than their sender's had been issued. */
  staleWritesRejected: number;
  /** Most workers that held a grant at once as seen at a write: its sender plus those granted after it. */
  maxConcurrentHolders: number;
  /** Sender of the last write that changed the row; 'nobody' before any. */
  finalWriter: string;
  /** The fence the row holds now. */
  finalFence: number;
}

/**
 * Reads the verdict's numbers from the log of writes, the grants and the row of `table`.
 * `log`: another table of acts with the same columns (id, worker, accepted, at), for a
 * target no trigger can watch.
 */
export async function measureFencedLedger(stores: RunStores, table: string, log = WRITES_TABLE): Promise<LedgerTruth> {
  // "Newer": grants to other workers, numbered after the sender's own latest grant (none: 0),
  // and issued before the write ran. Any such grant makes the write stale.
  const { rows } = await stores.sql<{ accepted: number; rejected: number; holders: number; grants: number; writer: string | null }>(
    `with w as (
       select w.id, w.worker, w.accepted,
         (select count(*) from grants g
           where g.granted_at <= w.at and g.worker <> w.worker
             and g.grant_no > coalesce((select max(o.grant_no) from grants o
                                         where o.worker = w.worker and o.granted_at <= w.at), 0))::int as newer
         from ${log} w)
     select count(*) filter (where accepted and newer > 0)::int as accepted,
            count(*) filter (where not accepted and newer > 0)::int as rejected,
            coalesce(max(newer + 1), 0)::int as holders,
            (select count(*) from grants)::int as grants,
            (select worker from w where accepted order by id desc limit 1) as writer
       from w`,
  );
  const row = await stores.sql<{ fence: string }>(`select fence from ${table} where id = 1`);
  const truth = rows[0]!;
  return {
    staleWritesAccepted: truth.accepted,
    staleWritesRejected: truth.rejected,
    // A grant with no write still had a holder.
    maxConcurrentHolders: Math.max(truth.holders, Math.min(truth.grants, 1)),
    finalWriter: truth.writer ?? 'nobody',
    finalFence: Number(row.rows[0]?.fence ?? 0),
  };
}

/** The ledger's metrics with how each is observed; `target` names the guarded row, e.g. "documents". */
export function ledgerMetrics(target: string): Record<keyof LedgerTruth, MetricSpec> {
  const log = `PostgreSQL: the trigger's log of every UPDATE of ${target} (sender from its session, clock_timestamp())`;
  return {
    maxConcurrentHolders: {
      name: 'maxConcurrentHolders',
      label: 'Max concurrent holders',
      source: `${log}, against the grants PostgreSQL numbered: at each write, its sender plus the workers granted the lease after it`,
    },
    staleWritesAccepted: {
      name: 'staleWritesAccepted',
      label: 'Stale writes accepted',
      source: `${log}: UPDATEs that changed the row after a newer grant than their sender's was numbered`,
    },
    staleWritesRejected: {
      name: 'staleWritesRejected',
      label: 'Stale writes rejected',
      source: `${log}: UPDATEs that matched no row, sent after a newer grant than their sender's was numbered`,
    },
    finalWriter: {
      name: 'finalWriter',
      label: 'Last writer in the row',
      source: `${log}: the sender of the last UPDATE that changed the row`,
    },
    finalFence: { name: 'finalFence', label: 'Fence in the row', source: `PostgreSQL: the fence column of ${target} after the run` },
  };
}
