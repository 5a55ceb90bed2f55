// Each run's own users of the stores: a Redis ACL user that reaches only the run's keys and
// channels, and a PostgreSQL role that reaches only the run's schema, both named after the
// run (racelab_run_<id>) so that the sweep finds them, with random passwords. They are made
// with the run's schema (runStores.ts), dropped with it (runCleanup.ts), and the run's workers
// log in as them (worker/runLogin.ts). Where a store refused them at the server's start
// (credentialProbe.ts), runs go without, as before.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { RunCredentials } from '../worker/ipc.js';
import { credentialedUrl } from '../worker/runLogin.js';

/** A run's user and role: this prefix and the run's id. */
export const RUN_USER_PREFIX = 'racelab_run_';
/** A run's user or role by name; the run's id in the group. */
export const RUN_USER = /^racelab_run_([a-f0-9]{10})$/;

/** What the stores allow, found once at the server's start (credentialProbe.ts). */
export interface CredentialSupport {
  /** The commands a run's Redis user may send (ACL rules); null where Redis refused ACL users. */
  redisRules: string[] | null;
  /** Whether PostgreSQL lets the server make a role per run. */
  postgresRoles: boolean;
}

/** Neither store gives runs users of their own: runs use the server's, as before there were any. */
export const NO_CREDENTIALS: CredentialSupport = { redisRules: null, postgresRoles: false };

/** The name of a run's Redis user and PostgreSQL role; run ids are [a-f0-9] only. */
export function runUserName(runId: string): string {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  return `${RUN_USER_PREFIX}${runId}`;
}

const newPassword = (): string => randomBytes(16).toString('hex');

/** New users for a run, in the stores that allow them. */
export function newRunCredentials(runId: string, support: CredentialSupport): RunCredentials {
  const name = runUserName(runId);
  return {
    ...(support.redisRules ? { redis: { username: name, password: newPassword() } } : {}),
    ...(support.postgresRoles ? { postgres: { role: name, password: newPassword() } } : {}),
  };
}

/**
 * The commands of a run's Redis user, besides its keys and channels: all that variants and
 * lock libraries send (strings, hashes, lists, sets, Lua scripts, transactions, pub/sub, WAIT,
 * BLPOP), INFO for ioredis's ready check and CLIENT SETNAME; nothing of @dangerous (FLUSHALL,
 * FLUSHDB, CONFIG, DEBUG, SHUTDOWN, ACL's admin, KEYS, CLIENT KILL and LIST, MONITOR, SORT,
 * MIGRATE…). SCAN and RANDOMKEY would name other runs' keys; SCRIPT FLUSH and KILL and FUNCTION
 * act on the whole server (Redis 7 and later: before it, a subcommand cannot be taken away).
 */
export function redisRunRules(redisMajorVersion: number): string[] {
  const rules = ['+@all', '-@dangerous', '+info', '+client|setname', '-scan', '-randomkey'];
  return redisMajorVersion >= 7 ? [...rules, '-script|flush', '-script|kill', '-function'] : rules;
}

/** Makes a run's Redis user: its password, its keys and channels (the run's prefix), these rules. */
export async function createAclUser(
  redis: Redis,
  runId: string,
  user: { username: string; password: string },
  rules: string[],
): Promise<void> {
  const prefix = `racelab:${runId}:`;
  await redis.call(
    'ACL',
    'SETUSER',
    user.username,
    'reset',
    'on',
    `>${user.password}`,
    `~${prefix}*`,
    'resetchannels',
    `&${prefix}*`,
    ...rules,
  );
}

/** Removes a run's Redis user; Redis closes the connections logged in as it. */
export async function deleteAclUser(redis: Redis, runId: string): Promise<void> {
  await redis.call('ACL', 'DELUSER', runUserName(runId));
}

/** The run ids of the runs' users Redis holds; none where Redis refuses to say. */
export async function runAclUsers(redis: Redis): Promise<string[]> {
  const users = (await redis.call('ACL', 'USERS').catch(() => [])) as string[];
  return users.flatMap((name) => RUN_USER.exec(name)?.[1] ?? []);
}

/**
 * SQL that makes a run's role: it may log in, and use and create in the run's schema; the
 * tables, sequences and functions the server makes there for the run (the scenario's setup)
 * are its own to use, through the schema's default privileges. The server's user is made a
 * member so that a pooled worker, connected as that user before the run, may SET ROLE to it.
 */
export function createRoleSql(role: { role: string; password: string }, schema: string): string {
  if (!/^[a-f0-9]+$/.test(role.password)) throw new Error('bad password');
  const { role: name } = role;
  return `create role ${name} login password '${role.password}';
    grant ${name} to current_user;
    grant usage, create on schema ${schema} to ${name};
    alter default privileges in schema ${schema} grant all on tables to ${name};
    alter default privileges in schema ${schema} grant all on sequences to ${name};
    alter default privileges in schema ${schema} grant all on functions to ${name}`;
}

/** Drops a run's role, once its schema is gone, with whatever it made elsewhere; nothing when there is none. */
export async function dropRole(pool: pg.Pool, runId: string): Promise<void> {
  const name = runUserName(runId);
  await pool.query(`do $$ begin
    if exists (select from pg_roles where rolname = '${name}') then
      execute 'drop owned by ${name}';
      execute 'drop role ${name}';
    end if;
  end $$`);
}

/** The run ids of the runs' roles PostgreSQL holds. */
export async function runRoles(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(`select rolname as name from pg_roles where rolname ~ '^racelab_run_[a-f0-9]{10}$'`);
  return rows.flatMap((r) => RUN_USER.exec(r.name)?.[1] ?? []);
}

/** The store URLs with the run's users in them, where it has them. */
export function credentialedUrls(
  urls: { redisUrl: string; databaseUrl: string },
  { redis, postgres }: RunCredentials,
): { redisUrl: string; databaseUrl: string } {
  return {
    redisUrl: redis ? credentialedUrl(urls.redisUrl, redis.username, redis.password) : urls.redisUrl,
    databaseUrl: postgres ? credentialedUrl(urls.databaseUrl, postgres.role, postgres.password) : urls.databaseUrl,
  };
}
