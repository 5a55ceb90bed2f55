// What a fencing variant works with: the worker context plus the document job. The job's
// one effect is a write to the `documents` row; the row's trigger logs every write that
// reaches it (../kit/fencedLedger.ts), so the verdict counts what the database did, not
// what workers said.
import { writeRow } from '../kit/fencedLedger.js';
import { fencedLease, type FencedLease, type FencedSteps } from '../kit/fencedLease.js';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';

/** `work` edits the document for workMs. */
export interface DocumentJob extends WorkerContext, FencedLease {
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
  /** Runs the update ($1 content, $2 fence, $3 writer) once newer holders have written; returns the rows updated. */
  write(sql: string, values: [content: string, fence: number, writer: string]): Promise<number>;
}

/** The steps of the fenced variant that its mutants replace. */
export type DocumentSteps = FencedSteps<DocumentJob>;

/** Gives a worker context the document job's own operations. */
export function documentJob(ctx: WorkerContext): DocumentJob {
  const pauseMs = intParam(ctx.params, 'pauseMs');
  const lease = fencedLease(
    ctx,
    { lockKey: LOCK_KEY, fenceKey: FENCE_KEY },
    { label: 'edit the document', workMs: intParam(ctx.params, 'workMs') },
  );

  return {
    ...ctx,
    ...lease,
    async pause() {
      if (ctx.workerId === ctx.workerIds[0] && pauseMs > 0) await ctx.stall(pauseMs);
    },
    async write(sql, values) {
      await keepWriteOrder(ctx, lease.token);
      return writeRow(ctx, sql, values);
    },
  };
}
