import { randomUUID } from 'node:crypto';
import { acquireWaiting } from '../../kit/acquireWaiting.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { defineVariant } from '../../types.js';
import { refreshPerRequestPasses } from '../refreshBudget.js';
import { LOCK_KEY, type TokenService } from '../tokenService.js';

/** How often a waiting request tries the lock again, in ms; with many waiters one of them still gets it soon after a release. */
const RETRY_MS = 100;

export default defineVariant<TokenService>({
  id: 'lock-only',
  title: 'Redis lock around the refresh',
  correct: false,
  summary:
    'Every request takes a Redis lock, refreshes, and releases it. Refreshes no longer overlap, but there is still one per request, each revoking the last, now one after another: slow, and only the last token works.',
  figures: 'refresh calls 50, ok 1, failed 49 — serialised, ~7 s',
  source: import.meta.url,
  checkpoints: ['requests-answered'],
  expectedOtherwise: refreshPerRequestPasses,
  async run(service) {
    const lockKey = service.key(LOCK_KEY);
    await service.serve({
      async getToken() {
        const me = `${service.workerId}:${randomUUID()}`;
        // Wait for the lock: one refresh at a time, across every server. The lease counts
        // from the SET that won, not from its reply.
        const sent = await acquireWaiting(service, lockKey, me, service.leaseMs, {
          retryMs: RETRY_MS,
          onWait: () => service.emit({ type: 'lease-wait-started', key: lockKey }),
        });
        service.emit({ type: 'lease-acquired', key: lockKey, ttlMs: service.leaseMs, fromMs: sent, token: me });
        try {
          // Nobody looks whether the holder before us just refreshed: we refresh again,
          // and revoke the token it got.
          const token = await service.refresh();
          return token.value;
        } finally {
          const deleted = await releaseIfMine(service.redis, lockKey, me);
          service.emit({ type: 'lease-released', key: lockKey, deleted });
        }
      },
    });
  },
});
