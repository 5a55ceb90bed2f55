// One run's slice of the stores: a Redis key prefix and a PostgreSQL schema of its own,
// so runs side by side never see each other's data; dropped when the run ends. The run's
// server-side SQL goes through a PostgreSQL connection of its own (application_name
// "racelab-server run_<id>"), so a backend terminated under one run ends that run and
// no other.
import type { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_STORE, REDIS_STORE } from '@racelab/shared';
import { ensureRegistry, registerAndCreate, settled, unregister } from '../debris/runRegistry.js';
import type { RunStores } from '../scenarios/types.js';
import { abortable } from './abortable.js';
import { deleteKeys } from './deleteKeys.js';
import type { StoreSilence } from './storeWatch.js';

export interface OwnedRunStores extends RunStores {
  keyPrefix: string;
  schema: string;
  /**
   * Closes the run's connection, deletes the run's keys and drops its schema; retries a store
   * that is restarting, gives up on one that has gone silent (or once the stores are closed),
   * and leaves what it could not remove registered for the next sweep. Rejects saying what was
   * left, or, given `log`, says so there and resolves.
   */
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
  /** Which stores have gone silent: their part of the clean-up is left for the next sweep instead of waited for. */
  silence?: StoreSilence;
}

/** Waits between cleanup attempts: a store restarting is usually back within a second or two. */
const CLEANUP_RETRY_MS = [100, 250, 500, 1000, 2000, 3000];

/** Never aborts: the clean-up of stores without a watch waits for them as long as its retries last. */
const NEVER = new AbortController().signal;

/** Runs `attempt` until it succeeds, waiting between tries; stops at once, with the reason, when `gone` aborts. */
async function retried(what: string, attempt: () => Promise<void>, gone: AbortSignal): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      gone.throwIfAborted();
      return await abortable(attempt(), gone);
    } catch (error) {
      const wait = gone.aborted ? undefined : CLEANUP_RETRY_MS[i];
      if (wait === undefined) throw new Error(`${what} (${error instanceof Error ? error.message : String(error)})`);
      await abortable(new Promise((resolve) => setTimeout(resolve, wait)), gone).catch(() => undefined);
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

/** Resolves once `promise` settles, after `ms`, or when `gone` aborts, whichever comes first. */
function settledWithin(promise: Promise<unknown>, ms: number, gone: AbortSignal): Promise<void> {
  const ended = promise.then(
    () => undefined,
    () => undefined,
  );
  const timer = new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return abortable(Promise.race([ended, timer]), gone).catch(() => undefined);
}

/** Creates the run's schema and connection and returns its stores; run ids are [a-f0-9] only. */
export async function createRunStores(redis: Redis, pool: pg.Pool, runId: string, options: RunStoresOptions): Promise<OwnedRunStores> {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  const schema = `run_${runId}`;
  const keyPrefix = `racelab:${runId}:`;

  // A store's part of the clean-up stops once that store goes silent or the stores are closed.
  const gone = (store: typeof REDIS_STORE | typeof POSTGRES_STORE): AbortSignal => options.silence?.signal(store) ?? NEVER;
  const dropSchema = () =>
    retried(
      `could not drop schema ${schema}`,
      async () => void (await pool.query(`drop schema if exists ${schema} cascade`)),
      gone(POSTGRES_STORE),
    );
  const deleteRunKeys = () =>
    retried(`could not delete the keys ${keyPrefix}*`, async () => void (await deleteKeys(redis, `${keyPrefix}*`)), gone(REDIS_STORE));
  const forget = () => retried('could not unregister the run', () => unregister(pool, runId), gone(POSTGRES_STORE));

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
    await abortable(created, gone(POSTGRES_STORE)).catch(() => undefined);
    await dropSchema()
      .then(forget)
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
        const [, ...results] = await Promise.allSettled([
          settledWithin(client.end(), 1000, gone(POSTGRES_STORE)),
          deleteRunKeys(),
          dropSchema(),
        ]);
        const errors = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
        // Left registered when a store would not let go: the next sweep takes it.
        if (errors.length === 0) await forget().catch((error: Error) => errors.push(error.message));
        settled(runId);
        if (errors.length === 0) return;
        const left = `left for the next sweep (the run stays registered): ${errors.join('; ')}`;
        if (!options.log) throw new Error(left);
        options.log(`run ${runId}: ${left}`);
      })();
      return cleaning;
    },
  };
}

/**
 * Once a store has gone silent (or the stores are closed): the run's stores, once `first` has
 * settled, cleaned up as far as the stores that still answer allow, the rest left registered
 * for the next sweep. A run's clean-up races this, so that a frozen store's unanswered
 * commands (an observer's last sample, a fixture's goodbye) do not hold the run for their
 * timeouts. Never settles while both stores answer.
 */
export async function cleanUpOnSilence(
  silence: StoreSilence | undefined,
  stores: Promise<OwnedRunStores> | undefined,
  first: Promise<unknown>,
): Promise<void> {
  if (!silence || !stores) return new Promise<never>(() => undefined);
  await new Promise<void>((resolve) => {
    for (const store of [REDIS_STORE, POSTGRES_STORE] as const) {
      const signal = silence.signal(store);
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    }
  });
  await first;
  // Stores still being made on a silent PostgreSQL have nothing of the run's in Redis yet;
  // stores made already are cleaned (as far as Redis allows) whatever PostgreSQL does.
  const owned = await new Promise<OwnedRunStores | undefined>((resolve) => {
    stores.then(resolve, () => resolve(undefined));
    const pgGone = silence.signal(POSTGRES_STORE);
    const giveUp = (): void => void setImmediate(() => resolve(undefined));
    if (pgGone.aborted) giveUp();
    else pgGone.addEventListener('abort', giveUp, { once: true });
  });
  await owned?.cleanup().catch(() => undefined);
}
