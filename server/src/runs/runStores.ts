// One run's slice of the stores: a Redis key prefix and a PostgreSQL schema of its own,
// so runs side by side never see each other's data; dropped when the run ends. The run's
// server-side SQL goes through a PostgreSQL connection of its own (application_name
// "racelab-server run_<id>"), so a backend terminated under one run ends that run and
// no other. Where the stores allow it, the run also has users of its own (runCredentials.ts),
// made with its schema and dropped with it.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { POSTGRES_STORE, REDIS_STORE } from '@racelab/shared';
import { ensureRegistry, registerAndCreate } from '../debris/runRegistry.js';
import type { RunStores } from '../scenarios/types.js';
import type { RunCredentials } from '../worker/ipc.js';
import { RunCleanup } from './runCleanup.js';
import { RunConnection, timedOut, type RunConnectionOptions } from './runConnection.js';
import { createAclUser, createRoleSql, newRunCredentials, NO_CREDENTIALS, type CredentialSupport } from './runCredentials.js';
import type { StoreSilence } from './storeWatch.js';

export interface OwnedRunStores extends RunStores {
  keyPrefix: string;
  schema: string;
  /** The run's own store users, in the stores that allow them: its workers log in as them. */
  credentials: RunCredentials;
  /**
   * Closes the run's connection, deletes the run's keys and drops its schema and its own store
   * users; retries a store that is restarting, gives up on one that has gone silent (or once
   * the stores are closed), and leaves what it could not remove registered for the next sweep. Rejects saying what was
   * left, or, given `log`, says so there and resolves.
   */
  cleanup(): Promise<void>;
}

export interface RunStoresOptions extends RunConnectionOptions {
  /** A connection made before the run (SpareConnection): the run's own, once renamed for it. */
  spare?: pg.Client | null;
  /** Writes one line to the server's log (already redacted by the caller). */
  log?(line: string): void;
  /** Which stores have gone silent: their part of the clean-up is left for the next sweep instead of waited for. */
  silence?: StoreSilence;
  /** Which stores give the run users of its own (the playground's probe); none when absent. */
  credentialSupport?: CredentialSupport;
}

/** Creates the run's schema and connection and returns its stores; run ids are [a-f0-9] only. */
export async function createRunStores(redis: Redis, pool: pg.Pool, runId: string, options: RunStoresOptions): Promise<OwnedRunStores> {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  const schema = `run_${runId}`;
  const keyPrefix = `racelab:${runId}:`;
  const credentials = newRunCredentials(runId, options.credentialSupport ?? NO_CREDENTIALS);
  const cleanup = new RunCleanup({ redis, pool, runId, schema, keyPrefix, credentials, log: options.log, silence: options.silence });
  const connection = new RunConnection(pool, schema, runId, options);
  const rules = options.credentialSupport?.redisRules ?? [];
  const client = await openSchemaAndConnection(
    { redis, pool },
    { runId, schema, spare: options.spare, credentials, rules },
    connection,
    cleanup,
  );
  return {
    redis,
    keyPrefix,
    schema,
    credentials,
    key: (name) => keyPrefix + name,
    sql: (text, values) =>
      client.query(text, values).catch((error: unknown) => {
        throw timedOut(error, text, options.statementTimeoutMs);
      }),
    cleanup: () => cleanup.run(() => connection.end(client)),
  };
}

/**
 * The schema and the connection at the same time: a run waits for the slower one only. The
 * schema and the run's role are registered with their owner in the same transaction (see
 * debris/), and its Redis user made once they are, so a crash at any point leaves nothing the
 * next start cannot find; an opening that fails undoes them all.
 */
async function openSchemaAndConnection(
  { redis, pool }: { redis: Redis; pool: pg.Pool },
  run: { runId: string; schema: string; spare?: pg.Client | null; credentials: RunCredentials; rules: string[] },
  connection: RunConnection,
  cleanup: RunCleanup,
): Promise<pg.Client> {
  const { postgres, redis: user } = run.credentials;
  const created = ensureRegistry(pool)
    .then(() => pool.query(registerAndCreate(run.runId, run.schema, postgres ? createRoleSql(postgres, run.schema) : '')))
    .then(() => user && createAclUser(redis, run.runId, user, run.rules));
  const connecting = connection.open(run.spare);
  try {
    const [, client] = await Promise.all([created, connecting]);
    return client;
  } catch (error) {
    connection.abandon(connecting);
    await cleanup.afterFailedOpen(created);
    throw error;
  }
}

/**
 * Once a store has gone silent (or the stores are closed): the run's stores, once `first` has
 * settled, cleaned up as far as the stores that still answer allow, the rest left registered
 * for the next sweep. A run's clean-up races this, so that a frozen store's unanswered
 * commands (an observer's last sample, a fixture's goodbye) do not hold the run for their
 * timeouts. Never settles while both stores answer, until `over` aborts (the race is over):
 * then it lets go of the stores' signals, which outlive every run, and does nothing.
 */
export async function cleanUpOnSilence(
  silence: StoreSilence | undefined,
  stores: Promise<OwnedRunStores> | undefined,
  first: Promise<unknown>,
  over?: AbortSignal,
): Promise<void> {
  if (!silence || !stores) return new Promise<never>(() => undefined);
  const silent = await new Promise<boolean>((resolve) => {
    const signals = ([REDIS_STORE, POSTGRES_STORE] as const).map((store) => silence.signal(store));
    if (signals.some((signal) => signal.aborted)) return resolve(true);
    const settle = (isSilent: boolean): void => {
      for (const signal of signals) signal.removeEventListener('abort', onSilent);
      over?.removeEventListener('abort', onOver);
      resolve(isSilent);
    };
    const onSilent = (): void => settle(true);
    const onOver = (): void => settle(false);
    for (const signal of signals) signal.addEventListener('abort', onSilent, { once: true });
    over?.addEventListener('abort', onOver, { once: true });
  });
  if (!silent) return;
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
