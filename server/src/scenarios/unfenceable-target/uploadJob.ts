// What an unfenceable-target variant works with: the worker context plus the report job.
// Both workers hold a lease with a fence number; the job's one effect is an upload of the
// report to the variant's target. What a reader gets is read from the target itself; the
// pointer row logs its own writes (../kit/fencedLedger.ts); a file and a Redis key keep no
// log, so the job logs each upload (only the holders figure reads that log).
import { AFTER_GRANT, AFTER_WRITE } from '../kit/fencedLedger.js';
import type { FencedLease } from '../kit/fencedLease.js';
import { holdLease, type Grant } from '../kit/holdLease.js';
import { pauseFirst } from '../leaseHandover.js';
import { defineSteppedVariant, type SteppedVariant, type VariantDefinition, type WorkerContext } from '../types.js';
import { handover } from './choreography.js';
import { REFUSED_KEY, REPORT_FENCE_KEY, REPORT_KEY } from './keys.js';

/** `work` edits the report for workMs. */
export interface UploadJob extends WorkerContext, FencedLease {
  /** The folder the report is uploaded to (a real directory of the run). */
  dir: string;
  /** The run's Redis keys of the versioned-key target, and its count of refused uploads. */
  reportKey: string;
  reportFenceKey: string;
  refusedKey: string;
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
  /** Runs one upload attempt (true: the target took it) and logs it; returns its answer. */
  upload(fence: number, attempt: () => Promise<boolean>): Promise<boolean>;
}

/** The steps of a variant: how the lease is taken, and how the target takes (or refuses) an upload. */
export interface UploadSteps {
  /** Takes the lease with its fence number; null (after saying so) when another holds it. */
  acquire(job: UploadJob): Promise<(Grant & { fence: number }) | null>;
  /** Puts the report with this fence to the target; true when the target took it. */
  put(job: UploadJob, report: string, fence: number): Promise<boolean>;
}

/** The report as uploaded: its fence and writer are in the text, where no file system reads them. */
export function reportText(writer: string, fence: number): string {
  return `fence: ${fence}\nwriter: ${writer}\n\nQuarterly report, as edited by ${writer}.\n`;
}

/**
 * The report's life, the same whatever the target: the lease with its fence (`acquire`),
 * worker-1's stall, the edit, and one upload by `put`; the lease released if still its own.
 */
export async function uploadReport(job: UploadJob, { acquire, put }: UploadSteps): Promise<void> {
  await holdLease(job, acquire, async ({ fence }) => {
    await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
    await job.work();
    const report = reportText(job.workerId, fence); // "fence: 1" is the first line of the report
    await job.upload(fence, () => put(job, report, fence));
  });
}

/** A variant of this lab: its steps played by the report's life (uploadReport), with the lab's checkpoints. */
export function defineUploadVariant(
  definition: Omit<VariantDefinition<UploadJob>, 'run' | 'checkpoints'> & { steps: UploadSteps },
): SteppedVariant<UploadJob, UploadSteps> {
  return defineSteppedVariant<UploadJob, UploadSteps>({ ...definition, checkpoints: [AFTER_GRANT, AFTER_WRITE], run: uploadReport });
}

/** Gives a worker context the report job's own operations; `renews`: the variant's lease renews itself. */
export function uploadJob(ctx: WorkerContext, renews: boolean): UploadJob {
  const job = handover.job(ctx, 'edit the report');

  return {
    ...job,
    dir: String(ctx.shared.dir),
    reportKey: ctx.key(REPORT_KEY),
    reportFenceKey: ctx.key(REPORT_FENCE_KEY),
    refusedKey: ctx.key(REFUSED_KEY),
    pause: () => pauseFirst(ctx, renews),
    async upload(fence, attempt) {
      await handover.keepWriteOrder(ctx, job.token);
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
  };
}
