// What an event-loop-block variant works with: the worker context plus the statement job.
// On worker-1 the job starts with a long synchronous task that blocks the event loop: no
// signal, no SIGSTOP, the process is running flat out, and no timer of it can fire.
import { blockEventLoop } from '../kit/blockEventLoop.js';
import type { FencedSteps } from '../kit/fencedLease.js';
import { stallAsPlayed, stallOf } from '../kit/leaseEdge.js';
import type { RowJob } from '../leaseHandover.js';
import type { WorkerContext } from '../types.js';
import { handover } from './choreography.js';

/** `work` prepares the statement for workMs (awaits: the event loop is free meanwhile). */
export interface StatementJob extends RowJob {
  /** How often a watchdog renews the lease: a third of it. */
  renewEveryMs: number;
  /** On worker-1: spins for blockMs without yielding, as a breakpoint or a huge JSON.parse would. */
  blockEventLoop(): void;
}

/** The steps of the fenced variant that its mutants replace. */
export type StatementSteps = FencedSteps<StatementJob>;

/** Gives a worker context the statement job; `renews`: the variant's lease renews itself (a watchdog). */
export function statementJob(ctx: WorkerContext, renews: boolean): StatementJob {
  const job = handover.rowJob(ctx, 'prepare the statement');

  return {
    ...job,
    renewEveryMs: Math.max(1, Math.floor(job.leaseMs / 3)),
    blockEventLoop() {
      if (ctx.workerId !== ctx.workerIds[0]) return;
      // Played past the lease's end when it would end at its edge (kit/leaseEdge.ts).
      blockEventLoop(ctx, stallAsPlayed(ctx, stallOf(ctx.params, 'blockMs', renews), 'block'));
    },
  };
}
