// What a hot-key variant works with: one job about one entity. The job's work is a row in
// `job_runs` with its start and end as PostgreSQL's clock saw them; the verdict reads the
// rows (overlaps included), never what the workers say.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { acquireWaiting } from '../kit/acquireWaiting.js';
import type { Grant, LeaseHolder } from '../kit/holdLease.js';
import { releaseIfMine } from '../kit/releaseIfMine.js';
import { intParam, type WorkerContext } from '../types.js';
import type { PlannedJob } from './jobPlan.js';
import { markSkipped, markStarted, markWaiting, waitForRound } from './rounds.js';

/** A step of `sync` where the fault plan may strike, for the variants that declare it. */
export const AFTER_JOB_ROW = 'after-job-row';

// A worker's jobs share its one PostgreSQL connection: their queries take turns on it.
const tails = new WeakMap<pg.Client, Promise<unknown>>();
function inTurn(client: pg.Client, text: string, values: unknown[]): Promise<unknown> {
  const next = (tails.get(client) ?? Promise.resolve()).catch(() => undefined).then(() => client.query(text, values));
  tails.set(client, next);
  return next;
}

/** How often a job that found its lock taken tries again, in ms. */
const RETRY_EVERY_MS = 10;

/** One job's lease on the lock it names: what holdLease and takeLease need of it. */
export interface JobLease extends LeaseHolder, Pick<WorkerContext, 'now'> {
  /** Lease in ms: far longer than a job, so it never runs out here. */
  leaseMs: number;
}

export interface EntityJob extends WorkerContext {
  jobId: string;
  entity: string;
  /** The lock is taken: this job waits for it (reported once, however often it retries). */
  queue(key: string): Promise<void>;
  /** Works on the entity for jobMs, recorded in Postgres, while holding the lock `key`. */
  sync(key: string): Promise<void>;
  /** This job gives up and is never done, for the reason given. */
  skip(reason: string): Promise<void>;
  /** This job's lease on the lock named `name` (without the run prefix), with a token of its own. */
  lease(name: string): JobLease;
}

/** The steps of the per-entity-key variant that its mutants replace. */
export interface EntitySteps {
  /** The lock's name (without the run prefix) for this job. */
  lockName(job: EntityJob): string;
  /** Takes the lease; null when the job does not get it (and has said why). */
  acquire(job: EntityJob, lease: JobLease): Promise<Grant | null>;
}

/**
 * Every job must run, so a loser waits and tries again; it does not skip. The grant counts
 * from when the SET that won was sent, where the lease starts (not its reply).
 */
export async function waitTurn(job: EntityJob, lease: JobLease): Promise<Grant> {
  const fromMs = await acquireWaiting(job, lease.lockKey, lease.token, lease.leaseMs, {
    retryMs: RETRY_EVERY_MS,
    onWait: () => job.queue(lease.lockKey),
  });
  return { ttlMs: lease.leaseMs, fromMs };
}

/** Gives a worker context one planned job's own operations; `all` is the run's whole plan, `steps` the variant's checkpoints. */
export function entityJob(ctx: WorkerContext, planned: PlannedJob, all: PlannedJob[], steps: string[] = []): EntityJob {
  const jobMs = intParam(ctx.params, 'jobMs');
  const leaseMs = 30_000 + 10 * jobMs;
  const prefix = ctx.key('');
  const nameOf = (key: string): string => (key.startsWith(prefix) ? key.slice(prefix.length) : key);
  let waitReason: string | null = null;

  return {
    ...ctx,
    jobId: planned.id,
    entity: planned.entity,
    async queue(key) {
      if (waitReason !== null) return;
      waitReason = `${planned.id} waits for ${nameOf(key)}`;
      ctx.emit({ type: 'wait-started', reason: waitReason });
      await markWaiting(ctx, planned, nameOf(key));
    },
    async sync(key) {
      if (waitReason !== null) ctx.emit({ type: 'wait-finished', reason: waitReason });
      const label = `sync ${planned.entity} (${planned.id})`;
      await inTurn(ctx.pg, 'insert into job_runs (job, entity, worker) values ($1, $2, $3)', [planned.id, planned.entity, ctx.workerId]);
      // From here the job counts as running until its row has an end, whatever becomes of it.
      if (steps.includes(AFTER_JOB_ROW)) await ctx.checkpoint(AFTER_JOB_ROW);
      const round = await markStarted(ctx, planned);
      ctx.emit({ type: 'work-started', label });
      await ctx.sleep(jobMs);
      await waitForRound(ctx, planned, round, all, nameOf(key));
      await inTurn(ctx.pg, 'update job_runs set finished_at = clock_timestamp() where job = $1', [planned.id]);
      ctx.emit({ type: 'work-finished', label });
    },
    async skip(reason) {
      ctx.emit({ type: 'job-skipped', reason: `${planned.id}: ${reason}` });
      await markSkipped(ctx, planned);
    },
    lease(name) {
      const lockKey = ctx.key(name);
      const token = `${planned.id}:${randomUUID()}`;
      return {
        emit: ctx.emit,
        now: ctx.now,
        lockKey,
        token,
        leaseMs,
        enter: async () => undefined,
        release: () => releaseIfMine(ctx.redis, lockKey, token),
      };
    },
  };
}
