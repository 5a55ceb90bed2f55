// An explored run's hands on its stores and processes, for its scheduler: the leases it may
// expire (the run's keys with a time to live), expiring one on Redis's own clock, and killing
// a worker.
import type { Redis } from 'ioredis';
import { sleepAtLeast } from '../time/clock.js';
import type { ScheduledRun } from './stepScheduler.js';

/** What the scheduler uses of the run's processes. */
interface Killer {
  fault(workerId: string, action: 'kill'): string | undefined;
}

export function scheduledRun(
  redis: Redis,
  keyPrefix: string,
  processes: Killer,
  note: (workerId: string, text: string) => void,
): ScheduledRun {
  return {
    async leases() {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
        keys.push(...found);
        cursor = next;
      } while (cursor !== '0');
      if (keys.length === 0) return [];
      const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));
      return keys.filter((_, i) => ttls[i]! > 0).map((key) => key.slice(keyPrefix.length));
    },

    async expire(key) {
      // A millisecond's life left, then read until Redis says it is gone: it expires (its
      // observers see an expiry, as when a lease runs out), rather than being deleted.
      await redis.pexpire(keyPrefix + key, 1);
      while ((await redis.exists(keyPrefix + key)) === 1) await sleepAtLeast(1);
    },

    kill(workerId) {
      processes.fault(workerId, 'kill');
    },

    note,
  };
}
