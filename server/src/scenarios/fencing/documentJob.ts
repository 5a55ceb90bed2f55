// What a fencing variant works with: the worker context plus the document job. The job's
// one effect is a write to the `documents` row; the row's trigger logs every write that
// reaches it (../kit/fencedLedger.ts), so the verdict counts what the database did, not
// what workers said.
import { randomUUID } from 'node:crypto';
import { grantOnRecord, writeRow } from '../kit/fencedLedger.js';
import { releaseIfMine } from '../kit/releaseIfMine.js';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';

export interface DocumentJob extends WorkerContext {
  /** The run's Redis keys of the lease and of the fence counter. */
  lockKey: string;
  fenceKey: string;
  /** This worker's own lease value. */
  token: string;
  /** Lease length in ms. */
  leaseMs: number;
  /**
   * Waits until the server has this worker's grant on record (the lock key's new value, seen
   * from its own connection); returns its number in the order Redis granted the lease.
   */
  enter(): Promise<number>;
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
  /** Edits the document for workMs. */
  work(): Promise<void>;
  /** Runs the update ($1 content, $2 fence, $3 writer) once newer holders have written; returns the rows updated. */
  write(sql: string, values: [content: string, fence: number, writer: string]): Promise<number>;
  /** Releases the lease if it is still this worker's; returns the keys Redis deleted. */
  release(): Promise<number>;
  skip(): Promise<void>;
}

/** Gives a worker context the document job's own operations. */
export function documentJob(ctx: WorkerContext): DocumentJob {
  const workMs = intParam(ctx.params, 'workMs');
  const pauseMs = intParam(ctx.params, 'pauseMs');
  const lockKey = ctx.key(LOCK_KEY);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;

  return {
    ...ctx,
    lockKey,
    fenceKey: ctx.key(FENCE_KEY),
    token,
    leaseMs: intParam(ctx.params, 'leaseMs'),
    async enter() {
      const grant = await grantOnRecord(ctx, LOCK_KEY, token);
      ctx.signal(`granted:${ctx.workerId}`);
      return grant;
    },
    async pause() {
      if (ctx.workerId === ctx.workerIds[0] && pauseMs > 0) await ctx.stall(pauseMs);
    },
    async work() {
      ctx.emit({ type: 'work-started', label: 'edit the document' });
      await ctx.sleep(workMs);
      ctx.emit({ type: 'work-finished', label: 'edit the document' });
    },
    async write(sql, values) {
      await keepWriteOrder(ctx, token);
      return writeRow(ctx, sql, values);
    },
    async release() {
      return releaseIfMine(ctx.redis, lockKey, token);
    },
    async skip() {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await ctx.redis.get(lockKey) });
      ctx.emit({ type: 'job-skipped', reason: 'another worker holds the lease' });
    },
  };
}
