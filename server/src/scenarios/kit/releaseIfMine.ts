// Release-if-mine: a lease is deleted only by the holder whose token it still holds, in one
// step inside Redis. A plain DEL would free a lease that has already passed to another.
import type { Redis } from 'ioredis';

/** Deletes KEYS[1] only while it holds the token ARGV[1]; 1 when deleted, 0 when it had passed on. */
export const RELEASE_IF_MINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Releases the lease `key` if it still holds `token`; returns the keys Redis deleted (0 or 1). */
export async function releaseIfMine(redis: Redis, key: string, token: string): Promise<number> {
  return Number(await redis.eval(RELEASE_IF_MINE, 1, key, token));
}
