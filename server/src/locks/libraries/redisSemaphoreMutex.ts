// redis-semaphore 5.8.0, Mutex: one Redis, a random identifier per holder, and a
// refresh timer that renews the lock every 80 % of its timeout while the holder runs.
import { Mutex } from 'redis-semaphore';
import { defineLock } from '../lockAdapter.js';

export default defineLock({
  name: 'redis-semaphore (Mutex)',
  version: '5.8.0',
  id: 'lib-redis-semaphore-mutex',
  summary: 'redis-semaphore Mutex: SET NX PX with a random identifier, compare-and-delete release, renewed by a timer while held.',
  renews: true,
  fences: false,
  spansNodes: false,
  redisKey: (key) => `mutex:${key}`, // the library names its key "mutex:<key>"
  source: import.meta.url,
  create({ redis }) {
    return {
      async acquire(key, ttlMs) {
        const mutex = new Mutex(redis, key, {
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
  },
});
