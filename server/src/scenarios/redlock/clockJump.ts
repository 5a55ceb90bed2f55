// A forward jump of one node's clock, as NTP stepping the time or an operator setting it.
// Redis counts a key's expiry against its own wall clock, so a jump of J ms brings every
// deadline on that node J ms closer: a lock with less than J ms left is gone at once.
import type { Redis } from 'ioredis';
import { CLOCK_OFFSET_KEY } from './keys.js';

// The lock is the only key on the node with an expiry; the offset is kept for the timeline.
const JUMP = `
local ttl = redis.call('PTTL', KEYS[1])
local jump = tonumber(ARGV[1])
if ttl > jump then redis.call('PEXPIRE', KEYS[1], ttl - jump)
elseif ttl >= 0 then redis.call('DEL', KEYS[1]) end
return redis.call('INCRBY', KEYS[2], jump)`;

/** Jumps `node`'s clock by `jumpMs` for the lock at `lockKey` (as the nodes name it). */
export async function jumpClock(node: Redis, jumpMs: number, lockKey: string): Promise<void> {
  await node.eval(JUMP, 2, lockKey, CLOCK_OFFSET_KEY, jumpMs);
}
