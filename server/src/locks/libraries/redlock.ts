// redlock 4.2.0: the original Redlock client (Mike Marcacci), over the nodes it is given (the run's one Redis, or a lab's five).
// No renewal of its own: a holder calls lock.extend() itself, or the lock expires.
import { defineLock } from '../lockAdapter.js';
import { nullIfRefused, REDLOCK_ONE_TRY } from './oneTry.js';

export default defineLock({
  name: 'redlock',
  version: '4.2.0',
  id: 'lib-redlock',
  source: import.meta.url,
  summary: 'Redlock 4: SET NX PX with a random value, released by a compare-and-delete script; no renewal unless the holder extends.',
  renews: false,
  fences: false,
  spansNodes: true,
  redisKey: (key) => key,
  async create({ nodes }) {
    const { default: Redlock } = await import('redlock');
    const redlock = new Redlock(nodes, REDLOCK_ONE_TRY);
    return {
      acquire: (key, ttlMs) => nullIfRefused(redlock.lock(key, ttlMs), Redlock.LockError),
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
