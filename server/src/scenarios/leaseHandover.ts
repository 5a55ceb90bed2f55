// The choreography of the labs where a lease passes from a stalled worker to the next one
// (fencing, event-loop-block, unfenceable-target): worker-1 takes the lease first; worker-2
// takes it once Redis no longer holds it; and when worker-1's lease has passed to worker-2
// before worker-1 acts on the protected resource, worker-2 acts first. Which case a run is
// in is decided once, atomically in Redis, so no verdict hangs on which process the
// scheduler ran first. (redlock and fence-check decide it on their own nodes and orderings,
// with the same two scripts.) Each worker's job holds a fenced lease (kit/fencedLease.ts).
import type { Params } from '@racelab/shared';
import { writeRow } from './kit/fencedLedger.js';
import { fencedLease, type FencedLease } from './kit/fencedLease.js';
import { endsInsideLease, pauseAsPlayed, stallOf } from './kit/leaseEdge.js';
import { LUA_VALUE_OF } from './keyValue.js';
import { intParam, type ScenarioDefinition, type WorkerContext } from './types.js';

/** Names the worker that found its lease still live just before it acted. */
const WRITING_IN_LEASE_KEY = 'choreography:writing-in-lease';

/**
 * At write time: is this worker's lease still live (KEYS[1] holds its token ARGV[1], read as
 * ./keyValue.ts reads a lock of any type)? If so, say so where the next worker looks before
 * it takes the lease (KEYS[2] = ARGV[2], the worker); both in one step inside Redis. 1 when
 * it was live.
 */
export const CLAIM_WRITE_IN_LEASE = `${LUA_VALUE_OF}
if valueOf(KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2])
  return 1
end
return 0`;

/**
 * "held" while the lease (KEYS[1]) is in Redis; once it is gone, the worker that wrote
 * while holding it (KEYS[2], set by CLAIM_WRITE_IN_LEASE), or "free".
 */
export const LEASE_STATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'held' end
return redis.call('GET', KEYS[2]) or 'free'`;

export interface LeaseHandoverOptions {
  /** The lease's key (unprefixed). */
  lockKey: string;
  /** The counter the lab's fence numbers come from (unprefixed). */
  fenceKey: string;
  /** The table of the run's schema with a row per attempt, by `worker`. */
  attemptsTable: string;
  /** What a worker does to the resource, for the timeline: "writes", "uploads". */
  verb: string;
}

/** A job of a lab whose one effect is an UPDATE of its guarded row. */
export interface RowJob extends WorkerContext, FencedLease {
  /** Runs the update ($1 content, $2 fence, $3 writer) once newer holders have written; returns the rows updated. */
  write(sql: string, values: [content: string, fence: number, writer: string]): Promise<number>;
}

export interface LeaseHandover {
  /** The lease's key (unprefixed). */
  lockKey: string;
  /** worker-2's arrival: it waits while worker-1 holds the lease, then goes for it. */
  waitForFreeLease(ctx: WorkerContext): Promise<void>;
  /** Before a write: if this worker's lease has passed on, the newer holders write first. */
  keepWriteOrder(ctx: WorkerContext, token: string): Promise<void>;
  /** A worker's job: its context and its fenced lease, for work that is `label` for workMs. */
  job(ctx: WorkerContext, label: string): WorkerContext & FencedLease;
  /** The same job, whose effect is an UPDATE of the guarded row, sent in the lab's order. */
  rowJob(ctx: WorkerContext, label: string): RowJob;
  /**
   * The scenario's `work`: worker-2 arrives once worker-1's lease is free; each worker runs the
   * variant with its job, told whether the variant's lease renews itself (`renews`).
   */
  work<Job>(jobOf: (ctx: WorkerContext, renews: boolean) => Job): ScenarioDefinition<Job>['work'];
}

export function leaseHandover({ lockKey, fenceKey, attemptsTable, verb }: LeaseHandoverOptions): LeaseHandover {
  const handover: LeaseHandover = {
    lockKey,

    async waitForFreeLease(ctx) {
      const first = ctx.workerIds[0]!;
      await ctx.waitFor(`granted:${first}`, `done:${first}`);
      const reason = `the lease is held by ${first}`;
      ctx.emit({ type: 'wait-started', reason });
      // Set by the server once the key it watches is gone: expired, or released.
      await ctx.waitFor(`key-gone:${lockKey}`, `done:${first}`);
      // worker-1 found its lease live just before it acted: that act belongs to its lease.
      if ((await ctx.redis.get(ctx.key(WRITING_IN_LEASE_KEY))) === first) await ctx.waitFor(`done:${first}`);
      ctx.emit({ type: 'wait-finished', reason });
    },

    async keepWriteOrder(ctx, token) {
      const inLease = await ctx.redis.eval(CLAIM_WRITE_IN_LEASE, 2, ctx.key(lockKey), ctx.key(WRITING_IN_LEASE_KEY), token, ctx.workerId);
      if (Number(inLease) === 1) return;
      for (const other of ctx.workerIds.slice(ctx.workerIds.indexOf(ctx.workerId) + 1)) {
        const { rowCount } = await ctx.pg.query(`select 1 from ${attemptsTable} where worker = $1`, [other]);
        if (rowCount) continue; // it has acted already
        const reason = `choreography: ${other}, the newer holder, ${verb} first`;
        ctx.emit({ type: 'wait-started', reason });
        await ctx.waitFor(`wrote:${other}`, `done:${other}`);
        ctx.emit({ type: 'wait-finished', reason });
      }
    },

    job: (ctx, label) => ({ ...ctx, ...fencedLease(ctx, { lockKey, fenceKey }, { label, workMs: intParam(ctx.params, 'workMs') }) }),

    rowJob(ctx, label) {
      const job = handover.job(ctx, label);
      return {
        ...job,
        async write(sql, values) {
          await handover.keepWriteOrder(ctx, job.token);
          return writeRow(ctx, sql, values);
        },
      };
    },

    work: (jobOf) => async (ctx, variant) => {
      if (ctx.workerId !== ctx.workerIds[0]) await handover.waitForFreeLease(ctx);
      await variant.run(jobOf(ctx, variant.renewsLease ?? false));
    },
  };
  return handover;
}

/**
 * On worker-1: its process stopped for real (SIGSTOP) for pauseMs, then continued, as by a GC
 * pause or a VM migration; played past the lease's end when it would end at its edge.
 */
export async function pauseFirst(ctx: WorkerContext, renews: boolean): Promise<void> {
  if (ctx.workerId === ctx.workerIds[0]) await pauseAsPlayed(ctx, stallOf(ctx.params, 'pauseMs', renews));
}

/**
 * A lease-only variant's other verdict: worker-1's stall (`stallParam`, e.g. pauseMs, named
 * `stall` in the text) and its work end inside its lease, by its edge at least, so it `acts`
 * before the lease can pass on. null: they do not, and the stale act shows.
 */
export function actsInsideLease(params: Params, stallParam: string, stall: string, acts: string): string | null {
  const against = stallOf(params, stallParam, false);
  if (!endsInsideLease(against)) return null;
  const { leaseMs, stallMs, workMs, edgeMs } = against;
  return `worker-1's ${stall} and work (${stallMs} + ${workMs} ms) end ${edgeMs} ms or more inside its lease (${leaseMs} ms): it ${acts}`;
}
