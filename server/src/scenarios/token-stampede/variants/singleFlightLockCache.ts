import { randomUUID } from 'node:crypto';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineSteppedVariant } from '../../types.js';
import { CACHE_KEY, LOCK_KEY, POLL_MS, type TokenService } from '../tokenService.js';

/** The step of single-flight-lock-cache that its mutant replaces. */
export interface RecheckSteps {
  /** Under the lock: the token the holder before us may have just published, if any. */
  recheck(service: TokenService): Promise<string | null>;
}

export default defineSteppedVariant<TokenService, RecheckSteps>({
  id: 'single-flight-lock-cache',
  title: 'Single-flight, Redis lock, token shared in Redis',
  correct: true,
  summary:
    'In each process one request at a time goes for a token; across processes one Redis lock lets one server refresh; the new token goes to Redis with an expiry and every other server reads it there: one refresh, every request ok.',
  figures: 'refresh calls 1, ok 50, failed 0',
  source: import.meta.url,
  checkpoints: ['requests-answered'],
  steps: {
    recheck: (service) => service.redis.get(service.key(CACHE_KEY)), // the holder before us may have just published
  },
  async run(service, { recheck }) {
    const { redis } = service;
    const lockKey = service.key(LOCK_KEY);
    const cacheKey = service.key(CACHE_KEY);
    let inFlight: Promise<string> | null = null; // this process's one trip for a token

    // Across servers: the lock holder refreshes; the others wait for its token in Redis.
    async function readOrRefresh(): Promise<string> {
      let waiting = false;
      for (;;) {
        const cached = await redis.get(cacheKey);
        if (cached) {
          if (waiting) service.emit({ type: 'wait-finished', reason: 'another server refreshed the token' });
          return cached;
        }
        await service.pauseBeforeLock(); // the holder may publish and release meanwhile
        const me = `${service.workerId}:${randomUUID()}`;
        const sent = service.now(); // the lease counts from the SET, not from its reply
        if ((await redis.set(lockKey, me, 'PX', service.leaseMs, 'NX')) === 'OK') {
          service.emit({ type: 'lease-acquired', key: lockKey, ttlMs: service.leaseMs, fromMs: sent, token: me });
          try {
            const again = await recheck(service);
            if (again) return again;
            const fresh = await service.refresh();
            // Shared for 90% of its life, so no server ever reads a token about to expire.
            await redis.set(cacheKey, fresh.value, 'PX', fresh.useForMs);
            service.emit({ type: 'write-accepted', target: 'token:cache', value: fresh.value });
            return fresh.value;
          } finally {
            const deleted = await releaseIfMine(redis, lockKey, me);
            service.emit({ type: 'lease-released', key: lockKey, deleted });
          }
        }
        if (!waiting) service.emit({ type: 'wait-started', reason: 'another server refreshes the token' });
        waiting = true;
        await service.sleep(POLL_MS); // the holder publishes within the provider's latency
      }
    }

    async function getToken(): Promise<string> {
      const cached = await redis.get(cacheKey);
      if (cached) return cached;
      // Single-flight: one read-or-refresh per process; its other requests await the same one.
      inFlight ??= readOrRefresh().finally(() => (inFlight = null));
      return inFlight;
    }

    await service.serve({
      getToken,
      // A 401 means our token was replaced after we read it: wait until Redis holds the
      // new one and use that. Never refresh on a 401 by ourselves: that is the stampede.
      async afterUnauthorized(failed) {
        while ((await redis.get(cacheKey)) === failed) await service.sleep(POLL_MS);
        return getToken();
      },
    });
  },
});
