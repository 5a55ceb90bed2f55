// What an unfenceable-target variant works with: the worker context plus the report job.
// Both workers hold a lease with a fence number; the job's one effect is an upload of the
// report to the variant's target. What a reader gets is read from the target itself; the
// pointer row logs its own writes (../kit/fencedLedger.ts); a file and a Redis key keep no
// log, so the job logs each upload (only the holders figure reads that log).
import { randomUUID } from 'node:crypto';
import { acquireWithFence } from '../kit/acquireWithFence.js';
import { AFTER_WRITE, grantOnRecord } from '../kit/fencedLedger.js';
import { releaseIfMine } from '../kit/releaseIfMine.js';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, LOCK_KEY, REFUSED_KEY, REPORT_FENCE_KEY, REPORT_KEY } from './keys.js';

export interface UploadJob extends WorkerContext {
  /** The folder the report is uploaded to (a real directory of the run). */
  dir: string;
  /** The run's Redis keys of the versioned-key target, and its count of refused uploads. */
  reportKey: string;
  reportFenceKey: string;
  refusedKey: string;
  /** Takes the lease and its fence number; null when another worker holds the lease. */
  acquire(): Promise<number | null>;
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
  /** Edits the report for workMs and returns it; the fence number is written into it. */
  work(fence: number): Promise<string>;
  /** Runs one upload attempt (true: the target took it) and logs it; returns its answer. */
  upload(fence: number, attempt: () => Promise<boolean>): Promise<boolean>;
  /** Releases the lease if it is still this worker's. */
  finish(): Promise<void>;
}

/** The report as uploaded: its fence and writer are in the text, where no file system reads them. */
export function reportText(writer: string, fence: number): string {
  return `fence: ${fence}\nwriter: ${writer}\n\nQuarterly report, as edited by ${writer}.\n`;
}

/** Gives a worker context the report job's own operations. */
export function uploadJob(ctx: WorkerContext): UploadJob {
  const leaseMs = intParam(ctx.params, 'leaseMs');
  const pauseMs = intParam(ctx.params, 'pauseMs');
  const workMs = intParam(ctx.params, 'workMs');
  const lockKey = ctx.key(LOCK_KEY);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;

  return {
    ...ctx,
    dir: String(ctx.shared.dir),
    reportKey: ctx.key(REPORT_KEY),
    reportFenceKey: ctx.key(REPORT_FENCE_KEY),
    refusedKey: ctx.key(REFUSED_KEY),
    async acquire() {
      ctx.emit({ type: 'lease-requested', key: lockKey });
      const sent = ctx.now(); // the lease counts from the request, not from its reply
      const fence = await acquireWithFence(ctx.redis, lockKey, ctx.key(FENCE_KEY), token, leaseMs);
      if (fence === null) {
        ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await ctx.redis.get(lockKey) });
        ctx.emit({ type: 'job-skipped', reason: 'another worker holds the lease' });
        return null;
      }
      ctx.emit({ type: 'lease-acquired', key: lockKey, ttlMs: leaseMs, fromMs: sent, token, fence });
      await grantOnRecord(ctx, LOCK_KEY, token); // the server records the grant itself; this waits for it
      ctx.signal(`granted:${ctx.workerId}`);
      return fence;
    },
    async pause() {
      if (ctx.workerId === ctx.workerIds[0] && pauseMs > 0) await ctx.stall(pauseMs);
    },
    async work(fence) {
      ctx.emit({ type: 'work-started', label: 'edit the report' });
      await ctx.sleep(workMs);
      ctx.emit({ type: 'work-finished', label: 'edit the report' });
      return reportText(ctx.workerId, fence);
    },
    async upload(fence, attempt) {
      await keepWriteOrder(ctx, token);
      const taken = await attempt();
      await ctx.checkpoint(AFTER_WRITE);
      // The job's own log of the upload (the sender is the session's worker).
      await ctx.pg.query('insert into upload_attempts (accepted) values ($1)', [taken]);
      const value = `report with fence ${fence}`;
      if (taken) ctx.emit({ type: 'write-accepted', target: 'report', value, fence });
      else ctx.emit({ type: 'write-rejected', target: 'report', value, fence, reason: 'the target holds a newer fence' });
      ctx.signal(`wrote:${ctx.workerId}`);
      return taken;
    },
    async finish() {
      const deleted = await releaseIfMine(ctx.redis, lockKey, token);
      ctx.emit({ type: 'lease-released', key: lockKey, deleted }); // 0 when it had passed on
    },
  };
}
