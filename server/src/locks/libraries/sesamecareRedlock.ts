// @sesamecare-oss/redlock 1.4.0: the maintained fork of Redlock 5, for ioredis 5.
// Renewal only inside redlock.using(); acquire() takes a lease that simply expires.
import { defineLock } from '../lockAdapter.js';
import { nullIfRefused, REDLOCK_ONE_TRY } from './oneTry.js';

export default defineLock({
  name: '@sesamecare-oss/redlock',
  version: '1.4.0',
  id: 'lib-sesamecare-redlock',
  source: import.meta.url,
  summary: 'Redlock 5 (maintained fork): acquire() with a random value, release by compare-and-delete; no renewal outside using().',
  renews: false,
  fences: false,
  spansNodes: true,
  answersAtMajority: true, // it asks every node at once and settles when a majority has voted
  redisKey: (key) => key,
  async create({ nodes }) {
    const { ExecutionError, Redlock } = await import('@sesamecare-oss/redlock');
    const redlock = new Redlock(nodes);
    return {
      // Redlock 5 takes its settings per call; the lock it returns extends with the same ones.
      acquire: (key, ttlMs) => nullIfRefused(redlock.acquire([key], ttlMs, REDLOCK_ONE_TRY), ExecutionError),
      async release(lock) {
        // Not lock.release(): it takes the client's own settings, 10 retries 200 ms apart, and a
        // stale holder still retrying would release after the next holder's lease had run out.
        await redlock.release(lock, REDLOCK_ONE_TRY).catch(() => undefined); // a lock that expired is no error here
      },
      value: (lock) => lock.value,
      async extend(lock, ttlMs) {
        await lock.extend(ttlMs);
      },
    };
  },
});
