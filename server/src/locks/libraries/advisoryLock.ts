// advisory-lock 2.0.0: a PostgreSQL session-level advisory lock. It has no expiry: it is
// held while the holder's database session lives, and freed when that session ends.
import { defineLock } from '../lockAdapter.js';

type Create = (databaseUrl: string) => (name: string) => { tryLock(): Promise<(() => Promise<void>) | undefined> };

/** The library (see LockModule.create). A CommonJS module whose function is its `default` export; Node and a bundler disagree on how deep that sits, so take it where it is. */
async function loadAdvisoryLock(): Promise<Create> {
  const loaded = (await import('advisory-lock')) as unknown as { default: Create | { default: Create } };
  return typeof loaded.default === 'function' ? loaded.default : loaded.default.default;
}

export default defineLock({
  name: 'advisory-lock',
  version: '2.0.0',
  id: 'lib-advisory-lock',
  source: import.meta.url,
  summary: 'advisory-lock: pg_try_advisory_lock on a hash of the name, in a session of its own; no TTL, freed when the session ends.',
  renews: false,
  fences: false,
  spansNodes: false,
  redisKey: () => null, // it lives in PostgreSQL
  async create({ databaseUrl, keyPrefix }) {
    const mutexFor = (await loadAdvisoryLock())(databaseUrl);
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
