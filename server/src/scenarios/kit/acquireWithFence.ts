// A lease and its fence number in one atomic step: numbers follow the order of grants even
// when a process stops between two commands.
import type { Redis } from 'ioredis';

/** SET NX PX the lease KEYS[1] to ARGV[1] for ARGV[2] ms and, only then, INCR the fence KEYS[2]. */
export const ACQUIRE_WITH_FENCE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`;

/** Takes the lease with its fence number; null when another holder has it. */
export async function acquireWithFence(
  redis: Redis,
  lockKey: string,
  fenceKey: string,
  token: string,
  leaseMs: number,
): Promise<number | null> {
  return (await redis.eval(ACQUIRE_WITH_FENCE, 2, lockKey, fenceKey, token, leaseMs)) as number | null;
}
