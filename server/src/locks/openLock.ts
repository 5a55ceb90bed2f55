// Makes a lock module's adapter inside a worker process, on connections scoped to the run.
import type { WorkerContext } from '../scenarios/types.js';
import type { LockAdapter, LockModule } from './lockAdapter.js';

export interface OpenLock {
  lock: LockAdapter;
  /** Closes the adapter and the connection it was given. */
  close(): Promise<void>;
}

/** The adapter of `module` for this worker: its own Redis connection, prefixed with the run's keys. */
export async function openLock(module: LockModule, ctx: WorkerContext): Promise<OpenLock> {
  const keyPrefix = ctx.key('');
  const redis = ctx.redis.duplicate({ keyPrefix });
  const lock = await module.create({
    redis,
    keyPrefix,
    redisUrl: process.env.RACELAB_REDIS_URL ?? '',
    databaseUrl: process.env.RACELAB_DATABASE_URL ?? '',
  });
  return {
    lock,
    async close() {
      await lock.close?.();
      redis.disconnect();
    },
  };
}
