// What a fencing variant works with: the worker context plus the document job. The job's
// one effect is a write to the `documents` row; the row's trigger logs every write that
// reaches it (../kit/fencedLedger.ts), so the verdict counts what the database did, not
// what workers said.
import { randomUUID } from 'node:crypto';
import { grantOnRecord, writeRow } from '../kit/fencedLedger.js';
import type { Grant } from '../kit/holdLease.js';
import { leaseOfJob, type LeaseOfJob } from '../kit/leaseOfJob.js';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';

/** `work` edits the document for workMs. */
export interface DocumentJob extends WorkerContext, LeaseOfJob {
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
  /** Runs the update ($1 content, $2 fence, $3 writer) once newer holders have written; returns the rows updated. */
  write(sql: string, values: [content: string, fence: number, writer: string]): Promise<number>;
}

/** The steps of the fenced variant that its mutants replace. */
export interface DocumentSteps {
  /** Takes the lease with its fence number; null (after saying so) when another holds it. */
  acquire(job: DocumentJob): Promise<(Grant & { fence: number }) | null>;
  /** Writes the row with this content and fence; returns the rows updated. */
  write(job: DocumentJob, content: string, fence: number): Promise<number>;
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
    ...leaseOfJob(ctx, ctx.redis, lockKey, token, { label: 'edit the document', workMs }),
    async write(sql, values) {
      await keepWriteOrder(ctx, token);
      return writeRow(ctx, sql, values);
    },
  };
}
