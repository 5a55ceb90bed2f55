// A lease taken with SET NX PX, as a grant: it counts from when the SET was sent, not from
// its reply (Redis starts the TTL no earlier).
import type { Redis } from 'ioredis';
import type { Grant } from './holdLease.js';

/** SETs `lockKey` to `token` for `leaseMs` unless it exists; the grant, or what `refused` resolves to (null) when another holds it. */
export async function takeLease(
  job: { now(): number; lockKey: string; token: string; leaseMs: number },
  redis: Redis,
  refused: () => Promise<null>,
): Promise<Grant | null> {
  const fromMs = job.now();
  const ok = await redis.set(job.lockKey, job.token, 'PX', job.leaseMs, 'NX');
  return ok === 'OK' ? { ttlMs: job.leaseMs, fromMs } : refused();
}
