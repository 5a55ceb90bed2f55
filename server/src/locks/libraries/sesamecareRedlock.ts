// @sesamecare-oss/redlock 1.4.0: the maintained fork of Redlock 5, for ioredis 5.
// Renewal only inside redlock.using(); acquire() takes a lease that simply expires.
import { ExecutionError, Redlock } from '@sesamecare-oss/redlock';
import { defineLock } from '../lockAdapter.js';

export default defineLock({
  name: '@sesamecare-oss/redlock',
  version: '1.4.0',
  id: 'lib-sesamecare-redlock',
  summary: 'Redlock 5 (maintained fork): acquire() with a random value, release by compare-and-delete; no renewal outside using().',
  renews: false,
  fences: false,
  spansNodes: true,
  redisKey: (key) => key,
  source: import.meta.url,
  create({ nodes }) {
    const redlock = new Redlock(nodes, { retryCount: 0 });
    return {
      async acquire(key, ttlMs) {
        try {
          return await redlock.acquire([key], ttlMs);
        } catch (error) {
          if (error instanceof ExecutionError) return null; // another holds it
          throw error;
        }
      },
      async release(lock) {
        await lock.release().catch(() => undefined); // a lock that expired is no error here
      },
      value: (lock) => lock.value,
      async extend(lock, ttlMs) {
        await lock.extend(ttlMs);
      },
    };
  },
});
