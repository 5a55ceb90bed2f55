// single-flight-lock-cache, without the second look at the cache under the lock.
import { mutantOf } from '../../types.js';
import singleFlightLockCache from '../variants/singleFlightLockCache.js';

export default mutantOf(singleFlightLockCache, {
  id: 'single-flight-lock-cache-no-recheck',
  mistake: 'does not read the shared cache again after taking the lock',
  failsAt: { requests: 30, servers: 2, waves: 1, providerLatencyMs: 300, pauseMs: 1000, tokenTtlMs: 10_000 },
  title: 'Single-flight, Redis lock, shared cache, no re-check under the lock',
  summary:
    'server-2 found no token, paused, then got the lock after server-1 had refreshed and released it: it refreshes again and revokes the token everyone holds.',
  source: import.meta.url,
  steps: {
    recheck: async () => null, // the mistake: no second look at the cache: the holder before us may have just published
  },
});
