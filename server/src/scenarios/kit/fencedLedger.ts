// The fenced ledger: the guarded row's own record of every write that reaches it, and the
// lease's grants as the server saw them. A trigger the run's setup installs logs each
// UPDATE statement of the guarded table, whoever sends it and by whatever path, with the
// sender (the session's application_name, set by the worker's runtime), whether it changed
// the row, the writer and fence it wrote, and clock_timestamp(). The grants are what the
// server's own observer of the lock key saw it hold: each new value is a grant to the
// value's owner, numbered in the order Redis held them and timed by Redis's TIME in the
// same read (the labs' own nodes: nodeGrants.ts). The verdict reads this log and the grants.
// PostgreSQL's clock_timestamp() and Redis's TIME both read the host's wall clock, so the
// two logs' times compare; the choreographies keep seconds between the acts that matter.
import type { Expectation, MetricSpec, Metrics } from '@racelab/shared';
import { keySeenLatch } from '../../worker/latches.js';
import type { KeyObserved, RunStores, WorkerContext } from '../types.js';

/** Checkpoint right after the lease was granted, before the worker does anything with it. */
export const AFTER_GRANT = 'after-grant';

/** Checkpoint right after a write reached PostgreSQL, before the worker says anything about it. */
export const AFTER_WRITE = 'after-write';

/** The table of the log, one row per UPDATE statement (by `worker`: the sender). */
export const WRITES_TABLE = 'row_writes';

/** Which worker took which value of a library's lock: filed by the holder (claimLeaseValue). */
export const LEASE_VALUES_TABLE = 'lease_values';

/** The sender as the worker's runtime named its session: "racelab-worker <schema> <worker>". */
export const SESSION_WORKER = `regexp_replace(current_setting('application_name'), '^.* ', '')`;

/**
 * Creates the grants table and the log of writes to `table` (which has `writer` and `fence`
 * columns and one row), with the statement-level trigger that fills it.
 */
export async function createFencedLedger(stores: RunStores, table: string): Promise<void> {
  // The lease's grants in the order Redis held them (see recordGrantsOf); only the server writes here.
  await stores.sql(`create table grants (
    grant_no bigserial primary key,
    worker text not null,
    token text,
    granted_at timestamptz not null)`);
  // A lock library writes a random value of its own, not "<worker>:<nonce>": its holder
  // files the value it was granted here, under its session's name (set by the worker's
  // runtime, not the variant), and measureFencedLedger gives the grant of that value to it.
  await stores.sql(`create table ${LEASE_VALUES_TABLE} (
    id bigserial primary key,
    value text not null,
    worker text not null default ${SESSION_WORKER})`);
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

/**
 * Creates the guarded row, id 1 of `table` (content: `content`, writer: nobody, fence 0),
 * and its ledger (createFencedLedger).
 */
export async function createFencedRow(stores: RunStores, table: string, content: string): Promise<void> {
  await stores.sql(`create table ${table} (
    id int primary key,
    content text not null,
    writer text not null,
    fence int not null default 0)`);
  await stores.sql(`insert into ${table} (id, content, writer) values (1, $1, 'nobody')`, [content]);
  await createFencedLedger(stores, table);
}

/** The guarded row of `table` as the timeline shows it: "worker-2 · fence 2"; null before there is one. */
export async function observeFencedRow(stores: RunStores, table: string): Promise<string | null> {
  const { rows } = await stores.sql<{ writer: string; fence: number }>(`select writer, fence from ${table} where id = 1`);
  const row = rows[0];
  return row ? `${row.writer} · fence ${row.fence}` : null;
}

/**
 * The scenario's `onKeyObserved` for the lease `lockKey` (unprefixed), whose values are
 * "<worker>:<nonce>": logs each new value the server sees as a grant to that worker, at
 * Redis's time of the read that saw it (a moment after the grant, never before). A renewal
 * keeps the value and is no grant.
 */
export function recordGrantsOf(lockKey: string) {
  return async (stores: RunStores, now: KeyObserved, before: KeyObserved | undefined): Promise<void> => {
    if (now.key !== lockKey || now.value === null || now.redisTimeUs === undefined || now.value === before?.value) return;
    await insertGrant(stores, now.value, now.redisTimeUs);
  };
}

/** Logs a grant the server saw: to the owner of `token` ("<worker>:<nonce>"), at `redisTimeUs` (Redis's TIME, µs). */
export async function insertGrant(stores: RunStores, token: string, redisTimeUs: number): Promise<void> {
  await stores.sql(
    `insert into grants (worker, token, granted_at)
     values ($1, $2, timestamptz 'epoch' + $3::bigint * interval '1 microsecond')`,
    [token.split(':')[0], token, redisTimeUs],
  );
}

/**
 * Waits until the server has the worker's grant (its `token` in `lockKey`, unprefixed) on
 * record; returns the grant's number, the order Redis held the lease in. The fault plan
 * may kill the worker first (AFTER_GRANT): the grant counts all the same. Waiting orders
 * the worker's later writes after its grant's record.
 */
export async function grantOnRecord(ctx: WorkerContext, lockKey: string, token: string): Promise<number> {
  await ctx.checkpoint(AFTER_GRANT);
  await ctx.waitFor(keySeenLatch(lockKey, token));
  const { rows } = await ctx.pg.query<{ grant_no: string }>('select max(grant_no) as grant_no from grants where token = $1', [token]);
  return Number(rows[0]!.grant_no);
}

/**
 * Files `value`, what a lock library stored at the lease's key for this worker's grant, as
 * this worker's (by its session's name): the one figure of the ledger a worker reports. Redis
 * still says when the value was granted and in which order; this says only whose it was.
 */
export async function claimLeaseValue(ctx: WorkerContext, value: string): Promise<void> {
  await ctx.pg.query(`insert into ${LEASE_VALUES_TABLE} (value) values ($1)`, [value]);
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
  // Grants of a library's values go to the workers that filed them (claimLeaseValue): the
  // n-th grant of a value to its n-th filer, for a lock that stores one value for all.
  await stores.sql(`update grants g set worker = v.worker
    from (select grant_no, token, row_number() over (partition by token order by grant_no) as n from grants) o
    join (select value, worker, row_number() over (partition by value order by id) as n from ${LEASE_VALUES_TABLE}) v
      on v.value = o.token and v.n = o.n
    where o.grant_no = g.grant_no`);
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

/** The figures of `truth` that a scenario's metrics take, by name. */
export function ledgerFigures(truth: LedgerTruth, ...names: Array<keyof LedgerTruth>): Metrics {
  return Object.fromEntries(names.map((name) => [name, truth[name]]));
}

/** The expectation every fenced lab holds its variants to: no write lands after its sender's lease had passed (`text` says it in the lab's words). */
export function noStaleWrite(text: string): Expectation {
  return { id: 'no-stale-write', metric: 'staleWritesAccepted', op: 'eq', value: 0, text };
}

/** The id of lastHolderWins' expectation. */
export const LAST_HOLDER_WINS = 'last-holder-wins';

/** The expectation that the row keeps the write of `worker`, the last one granted the lease. */
export function lastHolderWins(worker: string, text: string): Expectation {
  return { id: LAST_HOLDER_WINS, metric: 'finalWriter', op: 'eq', value: worker, text };
}

/** Where a scenario's grants come from, for its metrics' sources: the stores it reads them in, and how. */
export interface GrantSource {
  stores: string;
  text: string;
}

/** The grants of recordGrantsOf. */
export const OBSERVED_GRANTS: GrantSource = {
  stores: 'PostgreSQL and Redis',
  text: "the grants the server saw in Redis (each new holder of the lock key, timed by Redis's TIME)",
};

/** The ledger's metrics with how each is observed; `target` names the guarded row, e.g. "documents". */
export function ledgerMetrics(target: string, grants: GrantSource): Record<keyof LedgerTruth, MetricSpec> {
  const log = `${grants.stores}: the trigger's log of every UPDATE of ${target} (sender from its session, clock_timestamp())`;
  return {
    maxConcurrentHolders: {
      name: 'maxConcurrentHolders',
      label: 'Max concurrent holders',
      source: `${log}, against ${grants.text}: at each write, its sender plus the workers granted the lease after it`,
    },
    staleWritesAccepted: {
      name: 'staleWritesAccepted',
      label: 'Stale writes accepted',
      source: `${log}: UPDATEs that changed the row after a newer grant than their sender's, against ${grants.text}`,
    },
    staleWritesRejected: {
      name: 'staleWritesRejected',
      label: 'Stale writes rejected',
      source: `${log}: UPDATEs that matched no row, sent after a newer grant than their sender's, against ${grants.text}`,
    },
    finalWriter: {
      name: 'finalWriter',
      label: 'Last writer in the row',
      source: `PostgreSQL: the trigger's log of every UPDATE of ${target} (sender from its session, clock_timestamp()): the sender of the last UPDATE that changed the row`,
    },
    finalFence: { name: 'finalFence', label: 'Fence in the row', source: `PostgreSQL: the fence column of ${target} after the run` },
  };
}
