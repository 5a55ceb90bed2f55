// proactive-refresh, without the second look at the fresh-until key under the lock.
import { mutantOf } from '../../types.js';
import proactiveRefresh from '../variants/proactiveRefresh.js';

export default mutantOf(proactiveRefresh, {
  id: 'proactive-refresh-no-recheck',
  mistake: 'does not look at the fresh-until key again after taking the lock',
  failsAt: { requests: 30, servers: 2, waves: 1, providerLatencyMs: 300, pauseMs: 1000, tokenTtlMs: 10_000 },
  title: 'Proactive refresh, no re-check under the lock',
  summary: 'server-2 saw the token due, paused, then got the lock after another server had refreshed and released it: it refreshes again.',
  source: import.meta.url,
  steps: {
    refreshedMeanwhile: async () => false, // the mistake: no second look at token:fresh: the holder before us may have just refreshed
  },
});
