// Release: compare-and-delete in one round trip (see releaseScript.ts).
import type { Redis } from 'ioredis';
import type { Lock } from './lock.js';
import { RELEASE_SCRIPT } from './releaseScript.js';
import { runScript } from './script.js';

/** Deletes the lock if it still holds this token; false when the lease was already lost. */
export function release(redis: Redis, lock: Lock): Promise<boolean> {
  return runScript(redis, RELEASE_SCRIPT, [lock.key], [lock.token]).then((deleted) => deleted === 1);
}
