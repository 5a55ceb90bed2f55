// What an event-loop-block variant works with: the worker context plus the statement job.
// On worker-1 the job starts with a long synchronous task that blocks the event loop: no
// signal, no SIGSTOP, the process is running flat out, and no timer of it can fire.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { grantOnRecord, writeRow } from '../kit/fencedLedger.js';
import type { Grant } from '../kit/holdLease.js';
import { leaseOfJob, type LeaseOfJob } from '../kit/leaseOfJob.js';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';

/** `work` prepares the statement for workMs (awaits: the event loop is free meanwhile). */
export interface StatementJob extends WorkerContext, LeaseOfJob {
  lockKey: string;
  fenceKey: string;
  /** This worker's own lease value. */
  token: string;
  /** Lease length in ms. */
  leaseMs: number;
  /** How often a watchdog renews the lease: a third of it. */
  renewEveryMs: number;
  /**
   * Waits until the server has this worker's grant on record (the lock key's new value, seen
   * from its own connection); returns its number in the order Redis granted the lease.
   */
  enter(): Promise<number>;
  /** On worker-1: spins for blockMs without yielding, as a breakpoint or a huge JSON.parse would. */
  blockEventLoop(): void;
  /** Runs the update ($1 content, $2 fence, $3 writer) once newer holders have written; returns the rows updated. */
  write(sql: string, values: [content: string, fence: number, writer: string]): Promise<number>;
}

/** The steps of the fenced variant that its mutants replace. */
export interface StatementSteps {
  /** Takes the lease with its fence number; null (after saying so) when another holds it. */
  acquire(job: StatementJob): Promise<(Grant & { fence: number }) | null>;
  /** Writes the row with this content and fence; returns the rows updated. */
  write(job: StatementJob, content: string, fence: number): Promise<number>;
}

export function statementJob(ctx: WorkerContext): StatementJob {
  const leaseMs = intParam(ctx.params, 'leaseMs');
  const blockMs = intParam(ctx.params, 'blockMs');
  const workMs = intParam(ctx.params, 'workMs');
  const lockKey = ctx.key(LOCK_KEY);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;

  return {
    ...ctx,
    lockKey,
    fenceKey: ctx.key(FENCE_KEY),
    token,
    leaseMs,
    renewEveryMs: Math.max(1, Math.floor(leaseMs / 3)),
    async enter() {
      const grant = await grantOnRecord(ctx, LOCK_KEY, token);
      ctx.signal(`granted:${ctx.workerId}`);
      return grant;
    },
    blockEventLoop() {
      if (ctx.workerId !== ctx.workerIds[0] || blockMs === 0) return;
      const task = 'synchronous task';
      const fromMs = ctx.now();
      ctx.emit({ type: 'event-loop-blocked', task });
      const until = performance.now() + blockMs;
      while (performance.now() < until) {
        // Spinning: no callback, timer or reply of this process runs until the loop ends.
      }
      // On the run's clock, rounded as the stamps are.
      ctx.emit({ type: 'event-loop-unblocked', task, blockedMs: Math.round((ctx.now() - fromMs) * 1e3) / 1e3 });
    },
    ...leaseOfJob(ctx, ctx.redis, lockKey, token, { label: 'prepare the statement', workMs }),
    async write(sql, values) {
      await keepWriteOrder(ctx, token);
      return writeRow(ctx, sql, values);
    },
  };
}
