// Makes a lock module's adapter inside a worker process, on connections scoped to the run.
import type { WorkerContext } from '../scenarios/types.js';
import type { Redis } from 'ioredis';
import type { LockAdapter, LockModule } from './lockAdapter.js';
import { gateLock } from '../worker/scheduledStores.js';

export interface OpenLock {
  lock: LockAdapter;
  /** Closes the adapter and the connection it was given. */
  close(): Promise<void>;
}

/** What a lab with Redis of its own lends the adapter instead of the run's main Redis. */
export interface LabConnections {
  /** The lab's Redis for a lock of one node (failover: the connection through Sentinel); prefixed with the run's keys here. */
  redis?: Redis;
  /** The lab's independent nodes, as this worker reaches them, each already where the lab looks (redlock: the run's own nodes, no prefix); closed with the adapter. */
  nodes?: Redis[];
}

/** The adapter of `module` for this worker: its own connections, where the run (or its lab) keeps the lock. */
export async function openLock(module: LockModule, ctx: WorkerContext, lab: LabConnections = {}): Promise<OpenLock> {
  const keyPrefix = ctx.key('');
  const redis = (lab.redis ?? ctx.redis).duplicate({ keyPrefix });
  redis.on('error', () => undefined); // a command that fails reports it (a lab's primary may die)
  const nodes = lab.nodes ?? [redis];
  const made = await module.create({
    redis,
    nodes,
    keyPrefix,
    redisUrl: process.env.RACELAB_REDIS_URL ?? '',
    databaseUrl: process.env.RACELAB_DATABASE_URL ?? '',
  });
  // In an explored run each call of the lock is a scheduling point (its commands on `redis` are too).
  const { scheduled } = ctx;
  const lock = scheduled
    ? gateLock(
        made,
        (step) => scheduled.call(ctx, step),
        (key) => module.redisKey(key) ?? key,
      )
    : made;
  return {
    lock,
    async close() {
      await lock.close?.();
      for (const connection of new Set([redis, ...nodes])) connection.disconnect();
    },
  };
}
