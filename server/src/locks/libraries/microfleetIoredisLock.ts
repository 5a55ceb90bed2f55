// @microfleet/ioredis-lock 6.0.1: SET NX PX with a random UUID per Lock object, released
// and extended by compare-and-act scripts. No renewal of its own, no fencing token.
import type { Lock } from '@microfleet/ioredis-lock';
import { defineLock } from '../lockAdapter.js';
import { nullIfRefused } from './oneTry.js';

export default defineLock<Lock>({
  name: '@microfleet/ioredis-lock',
  version: '6.0.1',
  id: 'lib-microfleet-ioredis-lock',
  source: import.meta.url,
  summary: 'ioredis-lock: SET NX PX with a random UUID, release by compare-and-delete, extend by compare-and-expire; no renewal, no fence.',
  renews: false,
  fences: false,
  spansNodes: false,
  redisKey: (key) => key,
  async create({ redis }) {
    const { createLock, LockAcquisitionError } = await import('@microfleet/ioredis-lock');
    return {
      async acquire(key, ttlMs) {
        const lock = createLock(redis, { timeout: ttlMs, retries: 0 }); // retries 0: one try (./oneTry.ts)
        return nullIfRefused(lock.acquire(key), LockAcquisitionError);
      },
      async release(lock) {
        await lock.release().catch(() => undefined); // a lock that expired is no error here
      },
      async extend(lock, ttlMs) {
        await lock.extend(ttlMs);
      },
    };
  },
});
