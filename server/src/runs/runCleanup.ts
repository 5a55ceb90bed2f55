// What a run leaves in the stores goes when it ends: its connection, its keys, its schema,
// its own store users, then its entry in the run registry. Each store's part is retried
// while that store restarts and given up once it goes silent (or the stores are closed);
// what could not be removed stays registered for the next sweep.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { POSTGRES_STORE, REDIS_STORE } from '@racelab/shared';
import { settled, unregister } from '../debris/runRegistry.js';
import type { RunCredentials } from '../worker/ipc.js';
import { abortable } from './abortable.js';
import { deleteKeys } from './deleteKeys.js';
import { deleteAclUser, dropRole } from './runCredentials.js';
import type { StoreSilence } from './storeWatch.js';

export interface RunCleanupOptions {
  redis: Redis;
  pool: pg.Pool;
  runId: string;
  schema: string;
  keyPrefix: string;
  /** The run's own store users, dropped with its keys and schema. */
  credentials: RunCredentials;
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

/** Resolves once `promise` settles, after `ms`, or when `gone` aborts, whichever comes first. */
function settledWithin(promise: Promise<unknown>, ms: number, gone: AbortSignal): Promise<void> {
  const ended = promise.then(
    () => undefined,
    () => undefined,
  );
  const timer = new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return abortable(Promise.race([ended, timer]), gone).catch(() => undefined);
}

export class RunCleanup {
  private cleaning: Promise<void> | undefined;

  constructor(private readonly options: RunCleanupOptions) {}

  /** Aborts once `store` goes silent or the stores are closed: that store's part of the clean-up stops there. */
  private gone(store: typeof REDIS_STORE | typeof POSTGRES_STORE): AbortSignal {
    return this.options.silence?.signal(store) ?? NEVER;
  }

  /**
   * Ends the run's connection (through `endConnection`), deletes its keys and its Redis user,
   * drops its schema, then its role, once: later calls get the same promise. Rejects saying
   * what was left, or, given `log`, says so there and resolves.
   */
  run(endConnection: () => Promise<void>): Promise<void> {
    this.cleaning ??= this.removeAll(endConnection);
    return this.cleaning;
  }

  /**
   * After an opening that failed: the schema and the users, once their creation has settled
   * (unless PostgreSQL goes silent), and the run's entry; never rejects.
   */
  async afterFailedOpen(created: Promise<unknown>): Promise<void> {
    await abortable(created, this.gone(POSTGRES_STORE)).catch(() => undefined);
    await this.dropSchema()
      .then(() => this.dropRole())
      .then(() => this.deleteAclUser())
      .then(() => this.forget())
      .catch(() => undefined)
      .finally(() => settled(this.options.runId));
  }

  private async removeAll(endConnection: () => Promise<void>): Promise<void> {
    // Both stores, each on its own: one that is down must not leave the other's data
    // behind. The run's connection holds no lock outside a query, so it may close meanwhile;
    // one whose backend is gone may never answer the goodbye. Deleting the Redis user closes
    // the connections logged in as it; the role goes once the schema it had privileges in has.
    const [, ...results] = await Promise.allSettled([
      settledWithin(endConnection(), 1000, this.gone(POSTGRES_STORE)),
      this.deleteKeys(),
      this.deleteAclUser(),
      this.dropSchema().then(() => this.dropRole()),
    ]);
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
    // Left registered when a store would not let go: the next sweep takes it.
    if (errors.length === 0) await this.forget().catch((error: Error) => errors.push(error.message));
    settled(this.options.runId);
    if (errors.length > 0) this.report(errors);
  }

  /** Says what was left for the next sweep: in the log when there is one, else as the clean-up's error. */
  private report(errors: string[]): void {
    const left = `left for the next sweep (the run stays registered): ${errors.join('; ')}`;
    if (!this.options.log) throw new Error(left);
    this.options.log(`run ${this.options.runId}: ${left}`);
  }

  private dropSchema(): Promise<void> {
    const { pool, schema } = this.options;
    return retried(
      `could not drop schema ${schema}`,
      async () => void (await pool.query(`drop schema if exists ${schema} cascade`)),
      this.gone(POSTGRES_STORE),
    );
  }

  private dropRole(): Promise<void> {
    const { pool, runId, credentials } = this.options;
    if (!credentials.postgres) return Promise.resolve();
    return retried(`could not drop role ${credentials.postgres.role}`, () => dropRole(pool, runId), this.gone(POSTGRES_STORE));
  }

  private deleteAclUser(): Promise<void> {
    const { redis, runId, credentials } = this.options;
    if (!credentials.redis) return Promise.resolve();
    return retried(
      `could not delete the Redis user ${credentials.redis.username}`,
      () => deleteAclUser(redis, runId),
      this.gone(REDIS_STORE),
    );
  }

  private deleteKeys(): Promise<void> {
    const { redis, keyPrefix } = this.options;
    return retried(
      `could not delete the keys ${keyPrefix}*`,
      async () => void (await deleteKeys(redis, `${keyPrefix}*`)),
      this.gone(REDIS_STORE),
    );
  }

  private forget(): Promise<void> {
    const { pool, runId } = this.options;
    return retried('could not unregister the run', () => unregister(pool, runId), this.gone(POSTGRES_STORE));
  }
}
