// redlock 4 ships no types: the part of its API the adapter uses.
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
