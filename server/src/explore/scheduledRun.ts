// An explored run's hands on its stores and processes, for its scheduler: the leases it may
// expire (the run's keys with a time to live), expiring one on Redis's own clock, and killing
// a worker; whether a worker waits for a lock in PostgreSQL.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { sleepAtLeast } from '../time/clock.js';
import type { ScheduledRun } from './stepScheduler.js';

/** What the scheduler uses of the run's processes. */
interface Killer {
  fault(workerId: string, action: 'kill'): string | undefined;
}

/** The life an expiring key is left, in ms: long enough that Redis sets it rather than deleting the key at once. */
const EXPIRE_IN_MS = 20;

export function scheduledRun(
  stores: { redis: Redis; pg: pg.Pool; keyPrefix: string; schema: string },
  processes: Killer,
  note: (workerId: string, text: string) => void,
): ScheduledRun {
  const { redis, keyPrefix, schema } = stores;
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
      // A few milliseconds' life left, then read until Redis says it is gone: it expires (its
      // observers see an expiry, as when a lease runs out), rather than being deleted. Not 1 ms:
      // Redis deletes a key whose new expiry has already passed when it checks, with a DEL's
      // notification, and on a busy machine a millisecond passes inside the PEXPIRE itself.
      await redis.pexpire(keyPrefix + key, EXPIRE_IN_MS);
      while ((await redis.exists(keyPrefix + key)) === 1) await sleepAtLeast(1);
    },

    // A worker's session names the run's schema and the worker (application_name: the worker's
    // own, or a scenario's, as lost-update's admins name theirs).
    async blocked(workerId) {
      const { rows } = await stores.pg.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where wait_event_type = 'Lock' and strpos(application_name, $1) > 0 and application_name like '% ' || $2`,
        [schema, workerId],
      );
      return rows[0]!.n > 0;
    },

    kill(workerId) {
      processes.fault(workerId, 'kill');
    },

    note,
  };
}
