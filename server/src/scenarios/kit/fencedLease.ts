// A job's lease with a fence counter, as the labs where a stalled holder's lease passes on
// hold it (fencing, event-loop-block, unfenceable-target): the run's keys, a token of its
// own, the wait for the grant the server records, and leaseOfJob's release, skip and work.
import { randomUUID } from 'node:crypto';
import { intParam, type WorkerContext } from '../types.js';
import { grantOnRecord } from './fencedLedger.js';
import type { Grant } from './holdLease.js';
import { leaseOfJob, type LeaseOfJob } from './leaseOfJob.js';

export interface FencedLease extends LeaseOfJob {
  /** The run's Redis keys of the lease and of the fence counter. */
  lockKey: string;
  fenceKey: string;
  /** This worker's own lease value. */
  token: string;
  /** Lease length in ms (the `leaseMs` parameter). */
  leaseMs: number;
  /**
   * Waits until the server has this worker's grant on record (the lock key's new value, seen
   * from its own connection); returns its number in the order Redis granted the lease.
   */
  enter(): Promise<number>;
}

/** The steps of a fenced variant that its mutants replace. */
export interface FencedSteps<Job> {
  /** Takes the lease with its fence number; null (after saying so) when another holds it. */
  acquire(job: Job): Promise<(Grant & { fence: number }) | null>;
  /** Writes the row with this content and fence; returns the rows updated. */
  write(job: Job, content: string, fence: number): Promise<number>;
}

/** The lease `lockKey` with its fence counter `fenceKey` (both unprefixed), for a job whose work is `label` for `workMs`. */
export function fencedLease(
  ctx: WorkerContext,
  keys: { lockKey: string; fenceKey: string },
  work: { label: string; workMs: number },
): FencedLease {
  const lockKey = ctx.key(keys.lockKey);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;
  return {
    lockKey,
    fenceKey: ctx.key(keys.fenceKey),
    token,
    leaseMs: intParam(ctx.params, 'leaseMs'),
    async enter() {
      const grant = await grantOnRecord(ctx, keys.lockKey, token); // the server records the grant itself; this waits for it
      ctx.signal(`granted:${ctx.workerId}`);
      return grant;
    },
    ...leaseOfJob(ctx, ctx.redis, lockKey, token, work),
  };
}
