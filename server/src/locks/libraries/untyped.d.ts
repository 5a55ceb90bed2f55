// Libraries that ship no types (redlock 4, ioredfour): the part of their API the adapters use.
declare module 'redlock' {
  import type { Redis } from 'ioredis';
  namespace Redlock {
    class LockError extends Error {}
    interface Lock {
      value: string;
      unlock(): Promise<void>;
      extend(ttlMs: number): Promise<Lock>;
    }
  }
  class Redlock {
    static LockError: typeof Redlock.LockError;
    constructor(clients: Redis[], options?: { retryCount?: number; retryDelay?: number; driftFactor?: number });
    lock(resource: string, ttlMs: number): Promise<Redlock.Lock>;
  }
  export default Redlock;
}

// ioredfour: module.exports is the Lock class.
declare module 'ioredfour' {
  import type { Redis } from 'ioredis';
  namespace Lock {
    /** What acquireLock resolves to; the lock when `success`, and what release and extend take. */
    interface Acquired {
      id: string;
      success: boolean;
      /** The grant's number from the namespace's counter; -1 when not acquired. */
      index: number;
      ttl: number;
    }
  }
  class Lock {
    constructor(options: { redis: Redis; namespace?: string });
    acquireLock(id: string, ttlMs: number): Promise<Lock.Acquired>;
    releaseLock(lock: Lock.Acquired): Promise<{ success: boolean; result: 'expired' | 'released' | 'conflict' }>;
    extendLock(lock: Lock.Acquired, ttlMs: number): Promise<{ success: boolean }>;
    /** The duplicate of `redis` it listens for releases on; it has no close() of its own. */
    _redisSubscriber: Redis;
  }
  export default Lock;
}
