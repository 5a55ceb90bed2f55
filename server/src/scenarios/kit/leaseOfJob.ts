// The operations every lease-holding job module gives its variants, written once: release
// (release-if-mine), the report of a lease another worker holds, and the job's timed work.
import type { Redis } from 'ioredis';
import { readKeyValue } from '../keyValue.js';
import type { WorkerContext } from '../types.js';
import { releaseIfMine } from './releaseIfMine.js';

export interface LeaseOfJob {
  /** Releases the lease if it is still this worker's; returns the keys Redis deleted. */
  release(): Promise<number>;
  /** Reports the lease taken by another and the job skipped; resolves to null, the grant this worker did not get. */
  skip(): Promise<null>;
  /** Does the job's work (`label` on the timeline) for `ms`. */
  work(): Promise<void>;
}

/** The lease `lockKey` on `redis`, held with `token`, for a job whose work is `label` for `workMs`. */
export function leaseOfJob(
  ctx: WorkerContext,
  redis: Redis,
  lockKey: string,
  token: string,
  work: { label: string; workMs: number },
): LeaseOfJob {
  return {
    release: () => releaseIfMine(redis, lockKey, token),
    async skip() {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await readKeyValue(redis, lockKey) });
      ctx.emit({ type: 'job-skipped', reason: 'another worker holds the lease' });
      return null;
    },
    async work() {
      ctx.emit({ type: 'work-started', label: work.label });
      await ctx.sleep(work.workMs);
      ctx.emit({ type: 'work-finished', label: work.label });
    },
  };
}
