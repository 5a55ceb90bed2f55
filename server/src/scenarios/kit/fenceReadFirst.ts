// A classic mistake, written once for the near-misses that make it: the target's fence is
// read and compared in the application as the lease is taken, and the write that comes
// after the stall trusts that check instead of making it part of the write.
import type { WorkerContext } from '../types.js';

/**
 * `acquire`, then a read of the stored fence (`stored`: the table whose row 1 holds it, or
 * how to read it): the grant when the stored one is lower, else released and null.
 */
export function fenceReadFirst<Job extends Pick<WorkerContext, 'pg'>, G extends { fence: number }>(
  acquire: (job: Job) => Promise<G | null>,
  stored: string | ((job: Job) => Promise<number>),
  release: (job: Job) => Promise<unknown>,
): (job: Job) => Promise<G | null> {
  const read = typeof stored === 'string' ? (job: Job) => rowFence(job, stored) : stored;
  return async (job) => {
    const grant = await acquire(job);
    if (!grant) return null;
    if ((await read(job)) < grant.fence) return grant;
    await release(job);
    return null;
  };
}

async function rowFence(job: Pick<WorkerContext, 'pg'>, table: string): Promise<number> {
  const { rows } = await job.pg.query<{ fence: number }>(`select fence from ${table} where id = 1`);
  return rows[0]!.fence;
}
