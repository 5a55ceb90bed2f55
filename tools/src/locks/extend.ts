// Extend: renews the lease of a lock still held, in one round trip (see extendScript.ts).
import type { Redis } from 'ioredis';
import type { Lock } from './lock.js';
import { EXTEND_SCRIPT } from './extendScript.js';
import { runScript } from './script.js';

/** Gives the lock a new lease of `ttlMs` from now if it still holds this token; false when it was lost. */
export function extend(redis: Redis, lock: Lock, ttlMs: number = lock.ttlMs): Promise<boolean> {
  return runScript(redis, EXTEND_SCRIPT, [lock.key], [lock.token, ttlMs]).then((extended) => extended === 1);
}
