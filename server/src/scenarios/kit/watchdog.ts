// A watchdog: a timer that renews the lease (renew-if-mine) every `everyMs` while the job
// runs, and gives up once the lease is gone. It is a timer in the worker's own event loop:
// while the loop is blocked, it cannot fire.
import type { WorkerContext } from '../types.js';
import { renewIfMine } from './renewIfMine.js';

export interface WatchedLease extends Pick<WorkerContext, 'redis' | 'now' | 'emit'> {
  lockKey: string;
  token: string;
  leaseMs: number;
}

/** Starts renewing the lease every `everyMs`; returns the function that stops it. */
export function startWatchdog(job: WatchedLease, everyMs: number): () => void {
  const watchdog = setInterval(() => {
    const sent = job.now();
    void renewIfMine(job.redis, job.lockKey, job.token, job.leaseMs).then((renewed) => {
      if (renewed) {
        job.emit({ type: 'lease-expiry-set', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent }); // renewed
        return;
      }
      clearInterval(watchdog); // too late: the lease expired while the loop was blocked
      job.emit({ type: 'note', text: 'watchdog: the lease was gone when it could renew it' });
    });
  }, everyMs);
  return () => clearInterval(watchdog);
}
