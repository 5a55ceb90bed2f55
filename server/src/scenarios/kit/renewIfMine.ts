// Renew-if-mine: a watchdog pushes a lease's expiry out again only while the lease still
// holds its own token, in one step inside Redis; a lease that passed on stays the other's.
import type { Redis } from 'ioredis';

/** PEXPIRE KEYS[1] to ARGV[2] ms only while it holds the token ARGV[1]; 1 when renewed, 0 when it had passed on. */
export const RENEW_IF_MINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** Renews the lease `key` for `ttlMs` if it still holds `token`; true when renewed. */
export async function renewIfMine(redis: Redis, key: string, token: string, ttlMs: number): Promise<boolean> {
  return Number(await redis.eval(RENEW_IF_MINE, 1, key, token, ttlMs)) === 1;
}
