// redis-semaphore 5.8.0, RedlockMutex: the same Mutex over a list of independent Redis
// nodes (a majority must agree): the run's one Redis, or the five nodes of the Redlock lab.
import { RedlockMutex } from 'redis-semaphore';
import { defineLock } from '../lockAdapter.js';

export default defineLock({
  name: 'redis-semaphore (RedlockMutex)',
  version: '5.8.0',
  id: 'lib-redis-semaphore-redlock-mutex',
  summary: 'redis-semaphore RedlockMutex: the Mutex over a majority of the Redis nodes it is given, renewed by a timer while held.',
  renews: true,
  fences: false,
  spansNodes: true,
  redisKey: (key) => `mutex:${key}`, // the library names its key "mutex:<key>"
  source: import.meta.url,
  create({ nodes }) {
    return {
      async acquire(key, ttlMs) {
        const mutex = new RedlockMutex(nodes, key, {
          lockTimeout: ttlMs,
          acquireAttemptsLimit: 1, // one try: a container that does not get it skips the job
          onLockLost: () => undefined, // the run's verdict reports a lost lock
        });
        return (await mutex.tryAcquire()) ? mutex : null;
      },
      async release(mutex) {
        await mutex.release();
      },
      value: (mutex) => mutex.identifier,
    };
  },
});
