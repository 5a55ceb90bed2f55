// A lease done right: a unique token per grant, released by a compare-and-delete script,
// and a fencing token (INCR) with every grant for the data layer to compare.
// `racelab check --lock examples/locks/fenced.mjs` exits 0.
import { randomUUID } from 'node:crypto';

export const name = 'token + compare-and-delete + fence';
// Each grant's fence() is a number the data layer can compare: the scorecard's stale write is rejected with it.
export const fences = true;

// Deletes the lock only while it still holds this holder's token: one atomic step in Redis.
const RELEASE_IF_MINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export function create({ redis }) {
  return {
    async acquire(key, ttlMs) {
      const token = randomUUID();
      const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
      if (ok !== 'OK') return null;
      const fence = await redis.incr(`${key}:fence`); // grows with every grant
      return { key, token, fence };
    },
    async release({ key, token }) {
      await redis.eval(RELEASE_IF_MINE, 1, key, token);
    },
    async extend({ key, token }, ttlMs) {
      await redis.eval(
        `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`,
        1,
        key,
        token,
        ttlMs,
      );
    },
    fence: (handle) => handle.fence,
  };
}
