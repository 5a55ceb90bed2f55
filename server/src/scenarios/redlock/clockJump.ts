// A forward jump of one node's clock, as NTP stepping the time or an operator setting it.
// Redis counts a key's expiry against its own wall clock, so a jump of J ms brings every
// deadline on that node J ms closer: a lock with less than J ms left is gone at once. Where
// the node runs on a movable clock (cluster.ts), the jump is a write of its clock file: the
// node's own clock moves, and Redis expires the lock itself. Elsewhere it is simulated on
// the node's expiries.
import type { Redis } from 'ioredis';
import { jumpClockFile } from '../../labnet/clockFile.js';
import { CLOCK_OFFSET_KEY } from './keys.js';

// The lock is the only key on the node with an expiry; the total is kept for the timeline.
const SIMULATED_JUMP = `
local ttl = redis.call('PTTL', KEYS[1])
local jump = tonumber(ARGV[1])
if ttl > jump then redis.call('PEXPIRE', KEYS[1], ttl - jump)
elseif ttl >= 0 then redis.call('DEL', KEYS[1]) end
return redis.call('INCRBY', KEYS[2], jump)`;

/**
 * Jumps the node's clock by `jumpMs`: through `clockFile` where it has one, else on the
 * expiries `node` (a connection to it) holds for the lock at `lockKey` (as the nodes name it).
 */
export async function jumpClock(node: Redis, jumpMs: number, lockKey: string, clockFile: string | undefined): Promise<void> {
  if (clockFile !== undefined) jumpClockFile(clockFile, jumpMs);
  else await node.eval(SIMULATED_JUMP, 2, lockKey, CLOCK_OFFSET_KEY, jumpMs);
}
