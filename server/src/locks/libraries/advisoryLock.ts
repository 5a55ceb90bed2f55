// advisory-lock 2.0.0: a PostgreSQL session-level advisory lock. It has no expiry: it is
// held while the holder's database session lives, and freed when that session ends.
import advisoryLock from 'advisory-lock';
import { defineLock } from '../lockAdapter.js';

export default defineLock({
  name: 'advisory-lock',
  version: '2.0.0',
  id: 'lib-advisory-lock',
  summary: 'advisory-lock: pg_try_advisory_lock on a hash of the name, in a session of its own; no TTL, freed when the session ends.',
  renews: false,
  fences: false,
  redisKey: () => null, // it lives in PostgreSQL
  source: import.meta.url,
  create({ databaseUrl, keyPrefix }) {
    const mutexFor = advisoryLock.default(databaseUrl); // a CommonJS module: its export is `default`
    return {
      // Advisory locks are database-wide: the name carries the run's prefix. No TTL to give.
      async acquire(key) {
        const unlock = await mutexFor(keyPrefix + key).tryLock();
        return unlock ?? null;
      },
      async release(unlock) {
        await unlock();
      },
    };
  },
});
