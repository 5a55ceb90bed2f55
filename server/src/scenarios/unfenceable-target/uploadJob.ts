// What an unfenceable-target variant works with: the worker context plus the report job.
// Both workers hold a lease with a fence number; the job's one effect is an upload of the
// report to the variant's target. Every attempt is logged with the target's answer, and
// "stale" is decided by PostgreSQL from the order of grants.
import { randomUUID } from 'node:crypto';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, HOLDERS_KEY, HOLDERS_MAX_KEY, LOCK_KEY, REPORT_FENCE_KEY, REPORT_KEY } from './keys.js';

// The lease and its fence number in one atomic step, as in the fencing lab: numbers
// follow the order of grants even when a process stops between two commands.
const ACQUIRE_WITH_FENCE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`;

// Jepsen's lock-set: the largest size it reached proves an overlap without any timing guess.
const ENTER = `
redis.call('SADD', KEYS[1], ARGV[1])
local n = redis.call('SCARD', KEYS[1])
if n > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], n) end
return n`;

// Deletes the lease only while it still holds this worker's token.
const RELEASE_IF_MINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface UploadJob extends WorkerContext {
  /** The folder the report is uploaded to (a real directory of the run). */
  dir: string;
  /** The run's Redis keys of the versioned-key target. */
  reportKey: string;
  reportFenceKey: string;
  /** Takes the lease and its fence number; null when another worker holds the lease. */
  acquire(): Promise<number | null>;
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
  /** Edits the report for workMs and returns it; the fence number is written into it. */
  work(fence: number): Promise<string>;
  /** Runs one upload attempt (true: the target took it) and logs it; returns its answer. */
  upload(fence: number, attempt: () => Promise<boolean>): Promise<boolean>;
  /** Leaves the holders and releases the lease if it is still this worker's. */
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
  let grant = 0;

  return {
    ...ctx,
    dir: String(ctx.shared.dir),
    reportKey: ctx.key(REPORT_KEY),
    reportFenceKey: ctx.key(REPORT_FENCE_KEY),
    async acquire() {
      ctx.emit({ type: 'lease-requested', key: lockKey });
      const sent = ctx.now(); // the lease counts from the request, not from its reply
      const fence = (await ctx.redis.eval(ACQUIRE_WITH_FENCE, 2, lockKey, ctx.key(FENCE_KEY), token, leaseMs)) as number | null;
      if (fence === null) {
        ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await ctx.redis.get(lockKey) });
        ctx.emit({ type: 'job-skipped', reason: 'another worker holds the lease' });
        return null;
      }
      ctx.emit({ type: 'lease-acquired', key: lockKey, ttlMs: leaseMs, fromMs: sent, token, fence });
      await ctx.redis.eval(ENTER, 2, ctx.key(HOLDERS_KEY), ctx.key(HOLDERS_MAX_KEY), ctx.workerId);
      const { rows } = await ctx.pg.query<{ grant_no: number }>(
        'insert into grants (worker) values ($1) returning grant_no',
        [ctx.workerId],
      );
      grant = rows[0]!.grant_no;
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
      await ctx.pg.query('begin');
      try {
        const taken = await attempt();
        // Stale: a newer grant than this writer's exists once the target has answered.
        await ctx.pg.query(
          `insert into upload_attempts (worker, grant_no, fence, accepted, stale)
           values ($1, $2, $3, $4, exists (select 1 from grants where grant_no > $2))`,
          [ctx.workerId, grant, fence, taken],
        );
        await ctx.pg.query('commit');
        const value = `report with fence ${fence}`;
        if (taken) ctx.emit({ type: 'write-accepted', target: 'report', value, fence });
        else ctx.emit({ type: 'write-rejected', target: 'report', value, fence, reason: 'the target holds a newer fence' });
        ctx.signal(`wrote:${ctx.workerId}`);
        return taken;
      } catch (error) {
        await ctx.pg.query('rollback');
        throw error;
      }
    },
    async finish() {
      await ctx.redis.srem(ctx.key(HOLDERS_KEY), ctx.workerId);
      const deleted = Number(await ctx.redis.eval(RELEASE_IF_MINE, 1, lockKey, token));
      ctx.emit({ type: 'lease-released', key: lockKey, deleted }); // 0 when it had passed on
    },
  };
}
