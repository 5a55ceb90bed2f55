// The server's own connections to the stores: one Redis connection and a pool of PostgreSQL
// connections, for the run registry, schemas, the sweep and the clean-up (each run also has a
// PostgreSQL connection of its own). Hung commands fail in words instead of waiting for ever.
import { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_STORE, REDIS_STORE } from '@racelab/shared';
import { abortable } from './abortable.js';
import { goodbye, type StoreSilence, type StoreWatch } from './storeWatch.js';

/** The pool of the server's own PostgreSQL connections (schemas, cleanup); each run also has one of its own. */
export const SERVER_PG_POOL_SIZE = 10;

/**
 * The statement timeout of the server's own PostgreSQL connections, in ms. Their statements
 * (the run registry, creating and dropping schemas, the sweep, the store watch's pings) take
 * milliseconds; the slowest that is healthy, a DROP SCHEMA waiting for a killed worker's
 * backend to let go of its locks, a second at most. Past 10 s a statement is hung: it fails
 * with PostgreSQL's "canceling statement due to statement timeout", is retried or logged by
 * its caller, and gives its connection back, so a hung statement cannot take the pool's
 * connections one by one; 10 s is also within a run's 15 s clean-up budget.
 */
export const SERVER_STATEMENT_TIMEOUT_MS = 10_000;
/**
 * How long a command of the server's own Redis connection may wait for its answer, in ms.
 * A frozen Redis answers nothing and closes nothing: the store watch ends the runs going
 * within 2 s, and this makes every other command of the server (a sweep, a clean-up, a
 * sample) fail in words instead of waiting for ever. None of them blocks on purpose.
 */
export const SERVER_REDIS_COMMAND_TIMEOUT_MS = 5_000;

/**
 * How the server's own PostgreSQL sessions (its pool, each run's own connection and its spare)
 * commit: without waiting for the WAL to reach the disk, which took 2 to 5 ms a commit on the
 * 2-core machine, and a run's start and end commit half a dozen times (its registration,
 * schema and role, the scenario's setup, the clean-up). What a session commits is visible to
 * every other at once all the same: no worker, observer or measure sees anything else. A
 * crash of PostgreSQL itself could lose the last commits, registration and schema together,
 * and the sweep takes whatever that leaves.
 */
export const SERVER_SESSION_OPTIONS = '-c synchronous_commit=off';

export interface ServerConnectionOptions {
  redisUrl: string;
  databaseUrl: string;
  /** In ms; SERVER_STATEMENT_TIMEOUT_MS when absent. */
  statementTimeoutMs?: number;
  /** In ms; SERVER_REDIS_COMMAND_TIMEOUT_MS when absent. */
  redisCommandTimeoutMs?: number;
}

export interface ServerConnections {
  redis: Redis;
  pool: pg.Pool;
}

/** Creates the server's Redis connection and PostgreSQL pool (neither has answered yet); `log` hears of pooled connections lost. */
export function serverConnections(options: ServerConnectionOptions, log: (line: string) => void): ServerConnections {
  const redis = new Redis(options.redisUrl, {
    maxRetriesPerRequest: 1,
    connectionName: 'racelab-server',
    commandTimeout: options.redisCommandTimeoutMs ?? SERVER_REDIS_COMMAND_TIMEOUT_MS,
  });
  redis.on('error', () => {
    // Surfaces through the command that fails, and as 'close' (see the Playground's constructor).
  });
  // The process id tells one server's connections from another's (and an operator whose they are).
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: SERVER_PG_POOL_SIZE,
    application_name: `racelab-server pid ${process.pid}`,
    options: SERVER_SESSION_OPTIONS,
    statement_timeout: options.statementTimeoutMs ?? SERVER_STATEMENT_TIMEOUT_MS,
  });
  pool.on('error', (error) => {
    // An idle connection lost its backend; the pool replaces it, and no run was using it.
    log(`a PostgreSQL connection of the server was closed (${error.message}); it is replaced`);
  });
  return { redis, pool };
}

/** `step`, failed with the reason as soon as either store goes silent. */
export function unlessSilent<T>(silence: StoreSilence, step: Promise<T>): Promise<T> {
  return abortable(abortable(step, silence.signal(REDIS_STORE)), silence.signal(POSTGRES_STORE));
}

/** Waits for both stores' first answer; when one does not come (an error, or silence), closes the connections and rejects with the reason. */
export async function reachStores(watch: StoreWatch, { redis, pool }: ServerConnections): Promise<void> {
  try {
    await unlessSilent(watch, Promise.all([redis.ping(), pool.query('select 1')]));
  } catch (error) {
    await closeConnections(watch, { redis, pool });
    throw error;
  }
}

/** Closes what an opening that failed had connected to; a silent store's goodbye is not waited for. */
export async function closeConnections(watch: StoreWatch, { redis, pool }: ServerConnections): Promise<void> {
  const pgSilent = watch.isSilent(POSTGRES_STORE);
  await watch.stop();
  redis.disconnect();
  await goodbye(pool.end(), pgSilent);
}
