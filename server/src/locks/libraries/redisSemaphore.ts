// redis-semaphore 5.8.0: Mutex on one Redis, and RedlockMutex, the same Mutex over a list of
// independent Redis nodes (a majority must agree: the run's one Redis, or the five nodes of
// the Redlock lab). Either way a random identifier per holder, and a refresh timer that
// renews the lock every 80 % of its timeout while the holder runs.
import type { LockOptions, Mutex, RedlockMutex } from 'redis-semaphore';
import { defineLock, type LockAdapter } from '../lockAdapter.js';

/** The adapter of either class: `make` builds the mutex of a key with the options given. */
function mutexLock(make: (key: string, options: LockOptions) => Mutex | RedlockMutex): LockAdapter<Mutex | RedlockMutex> {
  return {
    async acquire(key, ttlMs) {
      const mutex = make(key, {
        lockTimeout: ttlMs,
        acquireAttemptsLimit: 1, // one try: a container that does not get it skips the job
        // A lost lock is reported by the run's verdict; the default would throw from a timer.
        onLockLost: () => undefined,
      });
      return (await mutex.tryAcquire()) ? mutex : null;
    },
    async release(mutex) {
      await mutex.release();
    },
    value: (mutex) => mutex.identifier,
  };
}

/** What both classes are. */
const REDIS_SEMAPHORE = {
  version: '5.8.0',
  source: import.meta.url,
  renews: true,
  renewsAt: 0.8, // its refreshInterval's default: lockTimeout × 0.8
  fences: false,
  redisKey: (key: string) => `mutex:${key}`, // the library names its key "mutex:<key>"
};

export const redisSemaphoreMutex = defineLock({
  ...REDIS_SEMAPHORE,
  name: 'redis-semaphore (Mutex)',
  id: 'lib-redis-semaphore-mutex',
  summary: 'redis-semaphore Mutex: SET NX PX with a random identifier, compare-and-delete release, renewed by a timer while held.',
  spansNodes: false,
  async create({ redis }) {
    const { Mutex } = await import('redis-semaphore');
    return mutexLock((key, options) => new Mutex(redis, key, options));
  },
});

export const redisSemaphoreRedlockMutex = defineLock({
  ...REDIS_SEMAPHORE,
  name: 'redis-semaphore (RedlockMutex)',
  id: 'lib-redis-semaphore-redlock-mutex',
  summary: 'redis-semaphore RedlockMutex: the Mutex over a majority of the Redis nodes it is given, renewed by a timer while held.',
  spansNodes: true,
  async create({ nodes }) {
    const { RedlockMutex } = await import('redis-semaphore');
    return mutexLock((key, options) => new RedlockMutex(nodes, key, options));
  },
});
