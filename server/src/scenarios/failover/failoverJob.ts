// What a failover variant works with: the worker context, its connection to the Redis
// behind Sentinel, and the document job. The job's one effect is a write to the
// `documents` row; the row's trigger logs every write that reaches it (../kit/fencedLedger.ts),
// so the verdict counts what the database did, not what workers said.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FencedSteps as FencedStepsOf } from '../kit/fencedLease.js';
import { writeRow } from '../kit/fencedLedger.js';
import { grantSeen } from '../kit/nodeGrants.js';
import { readKeyValue } from '../keyValue.js';
import { releaseIfMine } from '../kit/releaseIfMine.js';
import { intParam, type WorkerContext } from '../types.js';
import { letNewerHoldersWriteFirst, startOutage } from './choreography.js';
import { LOCK_KEY } from './keys.js';
import { deadlineMs } from './timing.js';

export interface FailoverJob extends WorkerContext {
  /** Connection to the primary Sentinel names; it follows a failover by itself. */
  lockRedis: Redis;
  lockKey: string;
  /** This worker's own lock value. */
  token: string;
  /** Lease length in ms: longer than the run may last, so no lock here ever expires. */
  leaseMs: number;
  /** How long WAIT may block, in ms. */
  waitTimeoutMs: number;
  /** Starts the job under the lock, once the server has its grant on record (seen on the nodes). */
  enter(): Promise<void>;
  /** Edits the document for workMs. */
  work(): Promise<void>;
  /** Runs the update; returns the rows updated. */
  write(sql: string, values: unknown[]): Promise<number>;
  /** Releases the lock if it is still this worker's; returns the keys deleted. */
  release(): Promise<number>;
  /** Reports that the lock is taken, by whom, and that this worker skips the job; resolves to null, no grant. */
  denied(): Promise<null>;
  /** Reports that this worker does not run the job, and why; resolves to null, no grant. */
  skip(reason: string): Promise<null>;
}

/** The step of wait-replica that its mutant replaces: whether WAIT's reply makes the lock safe to trust. */
export interface LockSteps {
  /** `acked`: the replicas WAIT says have the lock. */
  trusts(acked: number): boolean;
}

/** The steps of pg-fence that its mutants replace. */
export type FencedSteps = FencedStepsOf<FailoverJob>;

/** Gives a worker context the document job's own operations. */
export function failoverJob(ctx: WorkerContext, lockRedis: Redis): FailoverJob {
  const workMs = intParam(ctx.params, 'workMs');
  const lockKey = ctx.key(LOCK_KEY);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;
  const skip = async (reason: string): Promise<null> => {
    ctx.emit({ type: 'job-skipped', reason });
    await startOutage(ctx);
    return null;
  };

  return {
    ...ctx,
    lockRedis,
    lockKey,
    token,
    leaseMs: deadlineMs(ctx.params),
    waitTimeoutMs: intParam(ctx.params, 'waitTimeoutMs'),
    async enter() {
      // The server records the grant it saw on the nodes; this waits for it (the fault plan may kill the worker first).
      await grantSeen(ctx, token);
      await startOutage(ctx);
    },
    async work() {
      ctx.emit({ type: 'work-started', label: 'edit the document' });
      await ctx.sleep(workMs);
      ctx.emit({ type: 'work-finished', label: 'edit the document' });
      await letNewerHoldersWriteFirst(ctx);
    },
    async write(sql, values) {
      return writeRow(ctx, sql, values);
    },
    async release() {
      return releaseIfMine(lockRedis, lockKey, token);
    },
    async denied() {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await readKeyValue(lockRedis, lockKey) });
      return skip('another worker holds the lock');
    },
    skip,
  };
}
