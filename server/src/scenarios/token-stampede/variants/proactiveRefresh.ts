import { randomUUID } from 'node:crypto';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineSteppedVariant } from '../../types.js';
import { CACHE_KEY, FRESH_KEY, LOCK_KEY, POLL_MS, type TokenService } from '../tokenService.js';

/** The step of proactive-refresh that its mutant replaces. */
export interface RecheckSteps {
  /** Under the lock: whether the holder before us has just refreshed (the fresh-until key is back). */
  refreshedMeanwhile(service: TokenService): Promise<boolean>;
}

export default defineSteppedVariant<TokenService, RecheckSteps>({
  id: 'proactive-refresh',
  title: "Proactive refresh at 80% of the token's life",
  correct: true,
  summary:
    'A background loop on every server, behind one Redis lock, refreshes the shared token when 80% of its life has passed; requests only read Redis. After the first one, no request waits for a refresh or ever sees an expired token.',
  figures: '2 s token, 4 waves: refresh calls 3, ok 50, failed 0',
  source: import.meta.url,
  checkpoints: ['requests-answered'],
  defaults: { tokenTtlMs: 2000, waves: 4, waveGapMs: 1400 },
  steps: {
    refreshedMeanwhile: async (service) => (await service.redis.exists(service.key(FRESH_KEY))) === 1, // the holder before us just did it
  },
  async run(service, { refreshedMeanwhile }) {
    const { redis } = service;
    const lockKey = service.key(LOCK_KEY);
    const cacheKey = service.key(CACHE_KEY);
    const freshKey = service.key(FRESH_KEY);
    let serving = true;
    let waiting: Promise<string> | null = null; // this process's one wait for a first token

    // Runs on every server; `token:fresh` expires at 80% of the token's life, and whoever
    // then holds the lock refreshes for everyone, well before the token expires.
    async function keepFresh(): Promise<void> {
      while (serving) {
        const freshForMs = await redis.pttl(freshKey); // -2 when there is none: refresh now
        if (freshForMs > 0) {
          await service.sleep(Math.min(freshForMs, POLL_MS));
          continue;
        }
        await service.pauseBeforeLock(); // another server may refresh and release meanwhile
        const me = `${service.workerId}:${randomUUID()}`;
        if ((await redis.set(lockKey, me, 'PX', service.leaseMs, 'NX')) !== 'OK') {
          await service.sleep(POLL_MS); // another server is refreshing
          continue;
        }
        try {
          if (await refreshedMeanwhile(service)) continue;
          const fresh = await service.refresh();
          await redis
            .multi()
            .set(cacheKey, fresh.value, 'PX', fresh.useForMs) // what requests read
            .set(freshKey, fresh.value, 'PX', Math.round(0.8 * fresh.lifeMs)) // when to refresh again
            .exec();
          service.emit({ type: 'write-accepted', target: 'token:cache', value: fresh.value });
        } finally {
          await releaseIfMine(redis, lockKey, me);
        }
      }
    }

    // Only when there is no token yet (at the start): wait for the refresher's first one.
    async function waitForToken(): Promise<string> {
      service.emit({ type: 'wait-started', reason: 'the first token is on its way' });
      let token = await redis.get(cacheKey);
      while (!token) {
        await service.sleep(POLL_MS);
        token = await redis.get(cacheKey);
      }
      service.emit({ type: 'wait-finished', reason: 'the first token is on its way' });
      return token;
    }

    async function getToken(): Promise<string> {
      return (await redis.get(cacheKey)) ?? (waiting ??= waitForToken().finally(() => (waiting = null)));
    }

    const refresher = keepFresh();
    const served = service.serve({
      getToken,
      // The provider revokes the old token the moment it issues a new one, so a request
      // that read it just before can still get a 401: wait for the new one in Redis, retry once.
      async afterUnauthorized(failed) {
        while ((await redis.get(cacheKey)) === failed) await service.sleep(POLL_MS);
        return getToken();
      },
    });
    await Promise.all([refresher, served.finally(() => (serving = false))]);
  },
});
