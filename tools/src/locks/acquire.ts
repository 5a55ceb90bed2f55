// Acquire: one SET with NX and PX, so the lock and its lease appear together in one
// atomic command: no holder can die between a SETNX and an EXPIRE and leave a lock that
// never expires.
import type { Redis } from 'ioredis';
import type { Lock } from './lock.js';
import { newToken } from './token.js';

export interface AcquireOptions {
  /** Lease in ms: Redis deletes the lock after it, whatever happens to the holder. */
  ttlMs: number;
  /** The token to hold it with; a fresh random one by default. */
  token?: string;
}

/** Tries once to take the lock (SET key token NX PX ttl); null when another holds it. */
export function acquire(redis: Redis, key: string, options: AcquireOptions): Promise<Lock | null> {
  const token = options.token ?? newToken();
  const { ttlMs } = options;
  return redis.set(key, token, 'PX', ttlMs, 'NX').then((reply) => (reply === 'OK' ? { key, token, ttlMs } : null));
}
