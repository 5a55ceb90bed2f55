// What an event-loop-block variant works with: the worker context plus the statement job.
// On worker-1 the job starts with a long synchronous task that blocks the event loop: no
// signal, no SIGSTOP, the process is running flat out, and no timer of it can fire.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { FENCE_KEY, HOLDERS_KEY, HOLDERS_MAX_KEY, LOCK_KEY } from './keys.js';

// Jepsen's lock-set: the largest number of workers that believed they held the lease.
const ENTER = `
redis.call('SADD', KEYS[1], ARGV[1])
local n = redis.call('SCARD', KEYS[1])
if n > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], n) end
return n`;

// Deletes the lease only while it still holds this worker's token.
const RELEASE_IF_MINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface StatementJob extends WorkerContext {
  lockKey: string;
  fenceKey: string;
  /** This worker's own lease value. */
  token: string;
  /** Lease length in ms. */
  leaseMs: number;
  /** How often a watchdog renews the lease: a third of it. */
  renewEveryMs: number;
  /** Joins the lease's holders; returns the grant's number as the lease service counts them. */
  enter(): Promise<number>;
  /** On worker-1: spins for blockMs without yielding, as a breakpoint or a huge JSON.parse would. */
  blockEventLoop(): void;
  /** Prepares the statement for workMs (awaits: the event loop is free meanwhile). */
  work(): Promise<void>;
  /** Runs the update ($1 content, $2 fence, $3 writer) and logs the attempt; returns the rows updated. */
  write(sql: string, values: [content: string, fence: number, writer: string]): Promise<number>;
  leave(): Promise<void>;
  /** Releases the lease if it is still this worker's; returns the keys Redis deleted. */
  release(): Promise<number>;
  skip(): Promise<void>;
}

export function statementJob(ctx: WorkerContext): StatementJob {
  const leaseMs = intParam(ctx.params, 'leaseMs');
  const blockMs = intParam(ctx.params, 'blockMs');
  const workMs = intParam(ctx.params, 'workMs');
  const lockKey = ctx.key(LOCK_KEY);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;
  let grant = 0;

  return {
    ...ctx,
    lockKey,
    fenceKey: ctx.key(FENCE_KEY),
    token,
    leaseMs,
    renewEveryMs: Math.max(1, Math.floor(leaseMs / 3)),
    async enter() {
      await ctx.redis.eval(ENTER, 2, ctx.key(HOLDERS_KEY), ctx.key(HOLDERS_MAX_KEY), ctx.workerId);
      const { rows } = await ctx.pg.query<{ grant_no: number }>('insert into grants (worker) values ($1) returning grant_no', [
        ctx.workerId,
      ]);
      grant = rows[0]!.grant_no;
      ctx.signal(`granted:${ctx.workerId}`);
      return grant;
    },
    blockEventLoop() {
      if (ctx.workerId !== ctx.workerIds[0] || blockMs === 0) return;
      const label = 'synchronous task: event loop blocked';
      ctx.emit({ type: 'work-started', label });
      const until = performance.now() + blockMs;
      while (performance.now() < until) {
        // Spinning: no callback, timer or reply of this process runs until the loop ends.
      }
      ctx.emit({ type: 'work-finished', label });
    },
    async work() {
      ctx.emit({ type: 'work-started', label: 'prepare the statement' });
      await ctx.sleep(workMs);
      ctx.emit({ type: 'work-finished', label: 'prepare the statement' });
    },
    async write(sql, values) {
      await keepWriteOrder(ctx, token);
      const [, fence, writer] = values;
      await ctx.pg.query('begin');
      try {
        const updated = (await ctx.pg.query(sql, values)).rowCount ?? 0;
        // Stale: a newer grant than this writer's exists as Postgres runs the update.
        await ctx.pg.query(
          `insert into write_attempts (worker, grant_no, fence, accepted, stale)
           values ($1, $2, $3, $4, exists (select 1 from grants where grant_no > $2))`,
          [writer, grant, fence, updated > 0],
        );
        await ctx.pg.query('commit');
        ctx.signal(`wrote:${ctx.workerId}`);
        return updated;
      } catch (error) {
        await ctx.pg.query('rollback');
        throw error;
      }
    },
    async leave() {
      await ctx.redis.srem(ctx.key(HOLDERS_KEY), ctx.workerId);
    },
    async release() {
      return Number(await ctx.redis.eval(RELEASE_IF_MINE, 1, lockKey, token));
    },
    async skip() {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await ctx.redis.get(lockKey) });
      ctx.emit({ type: 'job-skipped', reason: 'another worker holds the lease' });
    },
  };
}
