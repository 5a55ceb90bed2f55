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

/** What taking a fenced lease needs of a job: its lease, its fence counter, and how it says it did not get it. */
export interface FencedLeaseJob {
  redis: Redis;
  now(): number;
  lockKey: string;
  fenceKey: string;
  token: string;
  leaseMs: number;
  /** Reports the lease held by another; resolves to null. */
  skip(): Promise<null>;
}

/** The lease and its fence number as a grant, counted from when the request was sent; null (said so) when another holds it. */
export async function takeWithFence(job: FencedLeaseJob): Promise<{ ttlMs: number; fromMs: number; fence: number } | null> {
  const fromMs = job.now(); // the lease counts from the request, not from its reply
  const fence = await acquireWithFence(job.redis, job.lockKey, job.fenceKey, job.token, job.leaseMs);
  return fence === null ? job.skip() : { ttlMs: job.leaseMs, fromMs, fence };
}
