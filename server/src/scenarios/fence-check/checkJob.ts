// What a fence-check variant works with in one ordering: the worker context plus that
// ordering's document row and lease. The one effect is an update of the row; PostgreSQL
// itself records every change of its content (a trigger), Redis records every grant in
// the very script that makes it, and the harness logs every attempt; "stale" is decided
// from those records when the run is measured.
import { randomUUID } from 'node:crypto';
import { pauseAsPlayed } from '../kit/leaseEdge.js';
import { releaseIfMine } from '../kit/releaseIfMine.js';
import { intParam, type WorkerContext } from '../types.js';
import { afterWaking, latch, letStaleWriteFirst, reachedStop } from './choreography.js';
import { pauseAgainstLease } from './wakesInLease.js';
import { fenceKey, grantsKey, lockKey, type Ordering, type Step } from './orderings.js';

// The lease and its fence number in one atomic step, as ../kit/acquireWithFence.ts, and
// more: the grant is recorded, with Redis's own clock, in the same step (no grant without
// its record), and the lease's time to live comes back as Redis itself has it.
const ACQUIRE_WITH_FENCE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local fence = redis.call('INCR', KEYS[2])
  local now = redis.call('TIME')
  redis.call('HSET', KEYS[3], fence, ARGV[3] .. ' ' .. now[1] .. ' ' .. now[2])
  return {fence, redis.call('PTTL', KEYS[1])}
end
return false`;

/** A step right after a grant, where the fault plan may strike, for the variants that declare it. */
export const AFTER_GRANT = 'after-grant';

export interface Lease {
  /** The lease's own id: the token Redis holds for it. */
  id: string;
  /** Its fence number: later grants get higher ones. */
  fence: number;
}

export interface CheckJob extends WorkerContext {
  /** The ordering's document row. */
  doc: string;
  /** What this worker writes into it. */
  content: string;
  /** Takes the ordering's lease and its fence number. */
  acquire(): Promise<Lease | null>;
  /** A named step: the fault plan may strike here, and worker-1 is stopped here in the orderings that say so. */
  checkpoint(step: Step): Promise<void>;
  /**
   * Runs the update with $1 the content, $2 this worker, $3 the lease's fence and $4 the
   * ordering's row (`more` from $5 on), and logs the attempt; returns the rows updated.
   */
  write(sql: string, lease: Lease, ...more: unknown[]): Promise<number>;
  /** The application turns its own write down. */
  refuse(reason: string): Promise<void>;
  /** Releases the lease if it is still this worker's. */
  release(): Promise<void>;
  /** Takes the lease, does `work` with it and releases it if still this worker's; skips when another holds it. */
  holding(work: (lease: Lease) => Promise<void>): Promise<void>;
}

/** A fence-check variant's one step of its own: the check and the write of the row, under its lease. */
export interface CheckSteps {
  write(job: CheckJob, lease: Lease): Promise<unknown>;
}

/** Gives a worker context the job of one ordering; `steps` are the variant's checkpoints. */
export function checkJob(ctx: WorkerContext, o: Ordering, steps: string[]): CheckJob {
  const leaseMs = intParam(ctx.params, 'leaseMs');
  const lock = ctx.key(lockKey(o.id));
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;
  const first = ctx.workerId === ctx.workerIds[0];
  // A variant that has no such step is stopped before its write.
  const stallAt: Step = steps.includes(o.stallAt) ? o.stallAt : 'before-write';
  let leaseFence = 0;

  const log = (accepted: boolean) =>
    ctx.pg.query('insert into attempts (ordering, worker, fence, accepted) values ($1, $2, $3, $4)', [
      o.id,
      ctx.workerId,
      leaseFence,
      accepted,
    ]);

  const job: CheckJob = {
    ...ctx,
    doc: o.id,
    content: `draft by ${ctx.workerId}`,
    async acquire() {
      ctx.emit({ type: 'lease-requested', key: lock });
      const sent = ctx.now(); // the lease counts from the request, not from its reply
      const granted = (await ctx.redis.eval(
        ACQUIRE_WITH_FENCE,
        3,
        lock,
        ctx.key(fenceKey(o.id)),
        ctx.key(grantsKey(o.id)),
        token,
        leaseMs,
        ctx.workerId,
      )) as [number, number] | null;
      if (granted === null) {
        ctx.emit({ type: 'lease-denied', key: lock, heldBy: await ctx.redis.get(lock) });
        ctx.emit({ type: 'job-skipped', reason: 'another worker holds the lease' });
        return null;
      }
      const [fence, ttlMs] = granted;
      ctx.emit({ type: 'lease-acquired', key: lock, ttlMs, fromMs: sent, token, fence });
      leaseFence = fence;
      ctx.signal(latch.granted(ctx.workerId, o));
      if (steps.includes(AFTER_GRANT)) await ctx.checkpoint(AFTER_GRANT);
      return { id: token, fence };
    },
    async checkpoint(step) {
      await ctx.checkpoint(step);
      if (!first) {
        if (step === 'before-write' && o.firstWriter === 'stale') await letStaleWriteFirst(ctx, o);
        return;
      }
      if (step !== stallAt) return;
      reachedStop(ctx, o); // worker-2 goes for the lease only from here on
      await pauseAsPlayed(ctx, pauseAgainstLease(ctx.params));
      await afterWaking(ctx, o, token);
    },
    async write(sql, lease, ...more) {
      let updated: number;
      await ctx.pg.query('begin');
      try {
        updated = (await ctx.pg.query(sql, [job.content, ctx.workerId, lease.fence, o.id, ...more])).rowCount ?? 0;
        await log(updated > 0);
        await ctx.pg.query('commit');
      } catch (error) {
        await ctx.pg.query('rollback');
        throw error;
      }
      const value = `draft by ${ctx.workerId}`;
      const fence = leaseFence;
      if (updated > 0) ctx.emit({ type: 'write-accepted', target: o.id, value, fence });
      else ctx.emit({ type: 'write-rejected', target: o.id, value, fence, reason: "the storage's check matched no row" });
      // After the event, down the same channel: whoever waits for this write is released
      // only once it is in the run's log, so the log keeps the order of the writes.
      ctx.signal(latch.attempted(ctx.workerId, o));
      return updated;
    },
    async refuse(reason) {
      await log(false);
      ctx.emit({ type: 'write-rejected', target: o.id, value: `draft by ${ctx.workerId}`, fence: leaseFence, reason });
      ctx.signal(latch.attempted(ctx.workerId, o));
    },
    async release() {
      const deleted = await releaseIfMine(ctx.redis, lock, token);
      ctx.emit({ type: 'lease-released', key: lock, deleted }); // 0 when it had passed on
    },
    async holding(work) {
      const lease = await job.acquire(); // the lease and a fence number, in one step
      if (!lease) return;
      try {
        await work(lease);
      } finally {
        await job.release();
      }
    },
  };
  return job;
}
