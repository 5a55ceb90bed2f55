// ioredfour 1.4.3: the lock is a hash {index} with a PEXPIRE. The index is an INCR of a
// counter beside it (one per namespace), in the same script as the grant, so each grant's is
// higher than the last: a fencing token. Release and extend compare it; no renewal of its own.
// Its value is that hash as racelab shows one (scenarios/keyValue.ts: "{index: 1}"), known from
// the grant's own index: read back from Redis after the grant, a lease that ran out in between
// would leave nothing to read, and the grant nobody's.
// The counter lives in the lock's Redis: a failover that loses a grant loses its increment too,
// and the promoted replica hands the same index out again; a row that takes only a higher
// fence still refuses the older holder's write (the failover lab shows it).
import type Lock from 'ioredfour';
import { defineLock } from '../lockAdapter.js';

export default defineLock<Lock.Acquired>({
  name: 'ioredfour',
  version: '1.4.3',
  id: 'lib-ioredfour',
  source: import.meta.url,
  summary: 'ioredfour: a hash {index} with PEXPIRE, the index an INCR per grant, given as a fence; release compares it; no renewal.',
  renews: false,
  fences: true,
  spansNodes: false,
  redisKey: (key) => `lock:${key}`, // its namespace "<prefix>lock" names the key "<prefix>lock:<key>"
  async create({ redis, keyPrefix }) {
    const { default: Lock } = await import('ioredfour');
    // It names its release channel after its namespace ("<namespace>-release") and publishes
    // on it: with the run's prefix in the namespace, on a connection that adds none, the lock
    // is at the same key ("<prefix>lock:<key>") and the channel is the run's own too, which a
    // run's Redis user may use (runs/runCredentials.ts); "lock-release" would be every run's.
    const unprefixed = redis.duplicate({ keyPrefix: '' });
    unprefixed.on('error', () => undefined);
    const locks = new Lock({ redis: unprefixed, namespace: `${keyPrefix}lock` });
    // It hears releases on a duplicate of that: quiet when a lab's primary dies, as `redis` is.
    const subscriber = locks._redisSubscriber;
    subscriber.on('error', () => undefined);
    return {
      async acquire(key, ttlMs) {
        // acquireLock tries once (waitAcquireLock would wait): a container that does not get it skips the job.
        const lock = await locks.acquireLock(key, ttlMs);
        return lock.success ? lock : null;
      },
      async release(lock) {
        await locks.releaseLock(lock); // a lock that expired, or passed on to a higher index, is left alone
      },
      async extend(lock, ttlMs) {
        if (!(await locks.extendLock(lock, ttlMs)).success)
          throw new Error(`ioredfour: lock ${lock.id} is no longer held at index ${lock.index}`);
      },
      value: (lock) => `{index: ${lock.index}}`,
      fence: (lock) => lock.index,
      async close() {
        subscriber.disconnect(); // ioredfour has no close of its own
        unprefixed.disconnect();
      },
    };
  },
});
