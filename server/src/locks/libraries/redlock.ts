// redlock 4.2.0: the original Redlock client (Mike Marcacci), over the nodes it is given (the run's one Redis, or a lab's five).
// No renewal of its own: a holder calls lock.extend() itself, or the lock expires.
import Redlock from 'redlock';
import { defineLock } from '../lockAdapter.js';

export default defineLock({
  name: 'redlock',
  version: '4.2.0',
  id: 'lib-redlock',
  summary: 'Redlock 4: SET NX PX with a random value, released by a compare-and-delete script; no renewal unless the holder extends.',
  renews: false,
  fences: false,
  spansNodes: true,
  redisKey: (key) => key,
  source: import.meta.url,
  create({ nodes }) {
    // retryCount 0: one try, and a container that does not get the lock skips the job.
    const redlock = new Redlock(nodes, { retryCount: 0 });
    return {
      async acquire(key, ttlMs) {
        try {
          return await redlock.lock(key, ttlMs);
        } catch (error) {
          if (error instanceof Redlock.LockError) return null; // another holds it
          throw error;
        }
      },
      async release(lock) {
        await lock.unlock().catch(() => undefined); // a lock that expired is no error here
      },
      value: (lock) => lock.value,
      async extend(lock, ttlMs) {
        await lock.extend(ttlMs);
      },
    };
  },
});
