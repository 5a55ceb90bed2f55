// A lock as it is often first written: SET NX PX with the same value for every holder,
// released by a plain DEL. `racelab check --lock examples/locks/naive-setnx.mjs` shows
// what that DEL does when the holder's lease has already passed to another.
export const name = 'naive SET NX + DEL';

export function create({ redis }) {
  return {
    async acquire(key, ttlMs) {
      const ok = await redis.set(key, 'locked', 'PX', ttlMs, 'NX');
      return ok === 'OK' ? key : null;
    },
    async release(key) {
      await redis.del(key); // deletes the key whoever holds it now
    },
  };
}
