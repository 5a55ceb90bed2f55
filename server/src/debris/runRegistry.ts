// Every run's schema, keys and store users are registered in PostgreSQL (racelab.runs) with the process
// that owns them, before either exists, so what a crashed server left is known for sure:
// a run whose owner no longer runs is debris, whatever happened to that owner.
import os from 'node:os';
import type pg from 'pg';
import { startTicks } from '../services/pids.js';

/** A registered run: its id and the process (host, pid, start) that owns its schema and keys. */
export interface RegisteredRun {
  runId: string;
  host: string;
  pid: number;
  ticks: string | null;
  /** The owner's lease key in Redis (serverLease.ts), when it held one: gone means the owner is dead. */
  lease: string | null;
  /** The owner's server name (RACELAB_SERVER_NAME), when it had one. */
  serverName: string | null;
}

// The machine's name, or RACELAB_HOST_ID where two machines share one (containers) or a test
// needs its own: a sweep judges only runs registered under its own. Letters, digits, dots and
// dashes; anything else is dropped before it meets SQL.
const HOST = (process.env.RACELAB_HOST_ID || os.hostname()).replace(/[^A-Za-z0-9.-]/g, '').slice(0, 200) || 'unknown';
const TICKS = startTicks(process.pid);

// Runs of this process whose clean-up has not ended yet (any playground of the process).
const live = new Set<string>();

/** True while a run of this process may still be using its schema and keys. */
export function isLiveHere(runId: string): boolean {
  return live.has(runId);
}

/** The run's clean-up is over, whether it succeeded or not: a sweep may now take what is left. */
export function settled(runId: string): void {
  live.delete(runId);
}

// The lease this process holds (serverLease.ts), written into each run it registers from then on.
let lease: { key: string; name: string | null } | null = null;

/** Records the lease this process holds (null: none any more) for the runs it registers. */
export function leaseRegistered(held: { key: string; name: string | null } | null): void {
  lease = held;
}

/** This process as the registry names owners. */
export const THIS_PROCESS = { host: HOST, pid: process.pid, ticks: TICKS };

const ensured = new WeakMap<pg.Pool, Promise<void>>();

/** Creates the registry (schema racelab, table runs) if it is not there yet; once per pool. */
export function ensureRegistry(pool: pg.Pool): Promise<void> {
  let done = ensured.get(pool);
  if (!done) {
    done = createRegistry(pool);
    ensured.set(pool, done);
    done.catch(() => ensured.delete(pool)); // tried again by the next caller
  }
  return done;
}

async function createRegistry(pool: pg.Pool): Promise<void> {
  const create = `create schema if not exists racelab;
    create table if not exists racelab.runs (
      run_id text primary key,
      host text not null,
      pid int not null,
      ticks text,
      started_at timestamptz not null default clock_timestamp())`;
  await catalogRace(pool, create);
  // The columns later servers added, only when missing: ALTER TABLE needs the table's owner,
  // and a server may run as a user the registry was granted to (docs/SERVICES.md).
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from pg_attribute
      where attrelid = 'racelab.runs'::regclass and attname in ('lease', 'server_name') and not attisdropped`,
  );
  if (rows[0]?.n !== 2)
    await catalogRace(pool, 'alter table racelab.runs add column if not exists lease text, add column if not exists server_name text');
}

/** Runs DDL that two processes may run at once: one of them loses a race on the catalog, and what it makes exists all the same; anything else is a real error. */
async function catalogRace(pool: pg.Pool, ddl: string): Promise<void> {
  try {
    await pool.query(ddl);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P07' && code !== '42P06' && code !== '42701') throw error;
    await pool.query(ddl);
  }
}

/**
 * SQL that registers a run and creates its schema in one transaction (one round trip): the
 * schema never exists without its row; nor does what `more` makes there (the run's role).
 * Run ids are [a-f0-9] only.
 */
export function registerAndCreate(runId: string, schema: string, more = ''): string {
  return registration(runId, [`create schema ${schema}`, more].filter(Boolean).join(';\n'));
}

/**
 * SQL that registers something of this process's under a run id of its own with no schema
 * (the start's probe of the stores, credentialProbe.ts), so that what it makes under that
 * name is found by the sweep like a run's.
 */
export function registerOnly(runId: string): string {
  return registration(runId, '');
}

function registration(runId: string, then: string): string {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  const ticks = TICKS === null ? 'null' : `'${TICKS.replace(/\D/g, '')}'`;
  live.add(runId);
  const insert = `insert into racelab.runs (run_id, host, pid, ticks, lease, server_name) values ('${runId}', '${HOST}', ${process.pid}, ${ticks}, ${literal(lease?.key)}, ${literal(lease?.name)})`;
  return then ? `${insert};\n    ${then}` : insert;
}

/** A lease key or server name as SQL: both are letters, digits and a few marks (checked where they are made), anything else dropped. */
function literal(text: string | null | undefined): string {
  return text ? `'${text.replace(/[^A-Za-z0-9._:-]/g, '')}'` : 'null';
}

/** Forgets a run once its schema and keys are gone. */
export async function unregister(pool: pg.Pool, runId: string): Promise<void> {
  await pool.query('delete from racelab.runs where run_id = $1', [runId]);
}

/** Every registered run. */
export async function registeredRuns(pool: pg.Pool): Promise<RegisteredRun[]> {
  const { rows } = await pool.query<RegistryRow>('select run_id, host, pid, ticks, lease, server_name from racelab.runs');
  return rows.map(fromRow);
}

/** One registered run, or null when it is not registered (never was, or swept). */
export async function registeredRun(pool: pg.Pool, runId: string): Promise<RegisteredRun | null> {
  const { rows } = await pool.query<RegistryRow>(
    'select run_id, host, pid, ticks, lease, server_name from racelab.runs where run_id = $1',
    [runId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

interface RegistryRow {
  run_id: string;
  host: string;
  pid: number;
  ticks: string | null;
  lease: string | null;
  server_name: string | null;
}

function fromRow(r: RegistryRow): RegisteredRun {
  return { runId: r.run_id, host: r.host, pid: r.pid, ticks: r.ticks, lease: r.lease, serverName: r.server_name };
}
