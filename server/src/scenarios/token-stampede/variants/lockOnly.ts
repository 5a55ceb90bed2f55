import { randomUUID } from 'node:crypto';
import { defineVariant } from '../../types.js';
import { refreshPerRequestPasses } from '../refreshBudget.js';
import { COMPARE_AND_DELETE } from '../compareAndDelete.js';
import { LOCK_KEY, type TokenService } from '../tokenService.js';

/** How often a waiting request tries the lock again, in ms; with many waiters one of them still gets it soon after a release. */
const RETRY_MS = 100;

export default defineVariant<TokenService>({
  id: 'lock-only',
  title: 'Redis lock around the refresh',
  correct: false,
  summary:
    'Every request takes a Redis lock, refreshes, and releases it. Refreshes no longer overlap, but there is still one per request, each revoking the last, now one after another: slow, and only the last token works.',
  source: import.meta.url,
  checkpoints: ['requests-answered'],
  expectedOtherwise: refreshPerRequestPasses,
  async run(service) {
    const lockKey = service.key(LOCK_KEY);
    await service.serve({
      async getToken() {
        const me = `${service.workerId}:${randomUUID()}`;
        // Wait for the lock: one refresh at a time, across every server.
        let sent = service.now(); // the lease counts from the SET that wins, not from its reply
        if ((await service.redis.set(lockKey, me, 'PX', service.leaseMs, 'NX')) !== 'OK') {
          service.emit({ type: 'lease-wait-started', key: lockKey });
          do {
            await service.sleep(RETRY_MS);
            sent = service.now();
          } while ((await service.redis.set(lockKey, me, 'PX', service.leaseMs, 'NX')) !== 'OK');
        }
        service.emit({ type: 'lease-acquired', key: lockKey, ttlMs: service.leaseMs, fromMs: sent, token: me });
        try {
          // Nobody looks whether the holder before us just refreshed: we refresh again,
          // and revoke the token it got.
          const token = await service.refresh();
          return token.value;
        } finally {
          const deleted = Number(await service.redis.eval(COMPARE_AND_DELETE, 1, lockKey, me));
          service.emit({ type: 'lease-released', key: lockKey, deleted });
        }
      },
    });
  },
});
