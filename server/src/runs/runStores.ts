// One run's slice of the stores: a Redis key prefix and a PostgreSQL schema of its own,
// so runs side by side never see each other's data; dropped when the run ends. The run's
// server-side SQL goes through a PostgreSQL connection of its own (application_name
// "racelab-server run_<id>"), so a backend terminated under one run ends that run and
// no other.
import type { Redis } from 'ioredis';
import pg from 'pg';
import { ensureRegistry, registerAndCreate, settled, unregister } from '../debris/runRegistry.js';
import type { RunStores } from '../scenarios/types.js';
import { deleteKeys } from './deleteKeys.js';

export interface OwnedRunStores extends RunStores {
  keyPrefix: string;
  schema: string;
  /** Closes the run's connection, deletes the run's keys and drops its schema; retries a store that is restarting. */
  cleanup(): Promise<void>;
}

export interface RunStoresOptions {
  /** The run's connection goes there; where the pool connects when absent. */
  databaseUrl?: string;
  /** A connection made before the run (SpareConnection): the run's own, once renamed for it. */
  spare?: pg.Client | null;
  /** How long one statement on the run's connection may take, in ms; PostgreSQL cancels it past that. */
  statementTimeoutMs?: number;
  /** The run's own PostgreSQL connection was lost (backend terminated, server restarted). */
  onLost(error: Error): void;
  /** Writes one line to the server's log (already redacted by the caller). */
  log?(line: string): void;
}

/** Waits between cleanup attempts: a store restarting is usually back within a second or two. */
const CLEANUP_RETRY_MS = [100, 250, 500, 1000, 2000, 3000];

async function retried(what: string, attempt: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = CLEANUP_RETRY_MS[i];
      if (wait === undefined) throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** PostgreSQL's code for a statement cancelled (by statement_timeout here: the run cancels nothing itself). */
const QUERY_CANCELED = '57014';

/** A statement past the run's statement timeout, in words that say which and why. */
function timedOut(error: unknown, text: string, ms: number | undefined): unknown {
  if ((error as { code?: string }).code !== QUERY_CANCELED || ms === undefined) return error;
  const statement = text.replace(/\s+/g, ' ').trim();
  const shown = statement.length > 60 ? `${statement.slice(0, 60)}…` : statement;
  return new Error(`a PostgreSQL statement of the run took longer than ${ms} ms and was cancelled (statement_timeout): ${shown}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

/** Creates the run's schema and connection and returns its stores; run ids are [a-f0-9] only. */
export async function createRunStores(redis: Redis, pool: pg.Pool, runId: string, options: RunStoresOptions): Promise<OwnedRunStores> {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  const schema = `run_${runId}`;
  const keyPrefix = `racelab:${runId}:`;

  const dropSchema = () =>
    retried(`could not drop schema ${schema}`, async () => void (await pool.query(`drop schema if exists ${schema} cascade`)));
  const deleteRunKeys = () =>
    retried(`could not delete the keys ${keyPrefix}*`, async () => void (await deleteKeys(redis, `${keyPrefix}*`)));

  let closing = false;
  const name = `racelab-server run_${runId}`;
  const own = (client: pg.Client): pg.Client => {
    client.on('error', (error) => {
      if (!closing) options.onLost(error);
    });
    client.on('end', () => {
      if (!closing) options.onLost(new Error('the connection ended'));
    });
    return client;
  };
  const connect = async (): Promise<pg.Client> => {
    const client = own(
      new pg.Client({
        ...(options.databaseUrl ? { connectionString: options.databaseUrl } : pool.options),
        application_name: name,
        statement_timeout: options.statementTimeoutMs,
      }),
    );
    try {
      await client.connect();
      await client.query(`set search_path to ${schema}`);
      return client;
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
  };
  /** The spare, named for this run; a fresh connection when the spare turns out dead. */
  const adopt = async (spare: pg.Client): Promise<pg.Client> => {
    const dying = (): void => undefined; // a dead spare's errors: its query fails, and that says enough
    spare.on('error', dying);
    try {
      // One round trip; the name is what an operator (and pg_stat_activity) sees.
      const timeout =
        options.statementTimeoutMs === undefined ? '' : `; set statement_timeout to ${Math.round(options.statementTimeoutMs)}`;
      await spare.query(`set search_path to ${schema}; set application_name to '${name}'${timeout}`);
      spare.off('error', dying);
      return own(spare);
    } catch {
      void spare.end().catch(() => undefined);
      return connect();
    }
  };
  // The schema and the connection at the same time: a run waits for the slower one only.
  // The schema is registered with its owner in the same transaction (see debris/), so a
  // crash at any point leaves nothing the next start cannot find.
  const created = ensureRegistry(pool).then(() => pool.query(registerAndCreate(runId, schema)));
  const connecting = options.spare ? adopt(options.spare) : connect();
  let client: pg.Client;
  try {
    [, client] = await Promise.all([created, connecting]);
  } catch (error) {
    closing = true;
    void connecting.then((c) => c.end()).catch(() => undefined);
    await created.catch(() => undefined);
    await dropSchema()
      .then(() => unregister(pool, runId))
      .catch(() => undefined)
      .finally(() => settled(runId));
    throw error;
  }

  let cleaning: Promise<void> | undefined;
  return {
    redis,
    keyPrefix,
    schema,
    key: (name) => keyPrefix + name,
    sql: (text, values) =>
      client.query(text, values).catch((error: unknown) => {
        throw timedOut(error, text, options.statementTimeoutMs);
      }),
    cleanup() {
      cleaning ??= (async () => {
        closing = true;
        // Both stores, each on its own: one that is down must not leave the other's data
        // behind. The run's connection holds no lock outside a query, so it may close meanwhile;
        // one whose backend is gone may never answer the goodbye.
        const [, ...results] = await Promise.allSettled([withTimeout(client.end(), 1000), deleteRunKeys(), dropSchema()]);
        const errors = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
        // Left registered when a store would not let go: the server's next sweep takes it.
        if (errors.length === 0)
          await unregister(pool, runId).catch((error: unknown) => errors.push(`could not unregister: ${String(error)}`));
        settled(runId);
        if (errors.length > 0) throw new Error(errors.join('; '));
      })();
      return cleaning;
    },
  };
}
