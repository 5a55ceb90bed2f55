// A classic mistake, written once for the near-misses that make it: the row's fence is read
// and compared in the application as the lease is taken, and the write that comes after the
// stall trusts that check instead of making it part of the UPDATE.
import type { WorkerContext } from '../types.js';

/** `acquire`, then a read of `table`'s fence: the grant when the row's is lower, else released and null. */
export function fenceReadFirst<Job extends Pick<WorkerContext, 'pg'>, G extends { fence: number }>(
  acquire: (job: Job) => Promise<G | null>,
  table: string,
  release: (job: Job) => Promise<unknown>,
): (job: Job) => Promise<G | null> {
  return async (job) => {
    const grant = await acquire(job);
    if (!grant) return null;
    const { rows } = await job.pg.query<{ fence: number }>(`select fence from ${table} where id = 1`);
    if (rows[0]!.fence < grant.fence) return grant;
    await release(job);
    return null;
  };
}
