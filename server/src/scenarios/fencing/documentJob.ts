// What a fencing variant works with: the worker context plus the document job. The job's
// one effect is a write to the `documents` row; the row's trigger logs every write that
// reaches it (../kit/fencedLedger.ts), so the verdict counts what the database did, not
// what workers said.
import type { FencedSteps } from '../kit/fencedLease.js';
import { pauseFirst, type RowJob } from '../leaseHandover.js';
import type { WorkerContext } from '../types.js';
import { handover } from './choreography.js';

/** `work` edits the document for workMs. */
export interface DocumentJob extends RowJob {
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
}

/** The steps of the fenced variant that its mutants replace. */
export type DocumentSteps = FencedSteps<DocumentJob>;

/** Gives a worker context the document job's own operations; `renews`: the variant's lease renews itself. */
export function documentJob(ctx: WorkerContext, renews: boolean): DocumentJob {
  return { ...handover.rowJob(ctx, 'edit the document'), pause: () => pauseFirst(ctx, renews) };
}
