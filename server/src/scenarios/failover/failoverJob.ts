// What a failover variant works with: the worker context, its connection to the Redis
// behind Sentinel, and the document job. The job's one effect is a write to the
// `documents` row; every attempt is logged as PostgreSQL decided it, so the verdict
// counts what the database did, not what workers said.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { intParam, type WorkerContext } from '../types.js';
import { letNewerHoldersWriteFirst, startOutage } from './choreography.js';
import { HOLDERS_KEY, HOLDERS_MAX_KEY, LOCK_KEY } from './keys.js';
import { deadlineMs } from './timing.js';

// Jepsen's lock-set, on the run's main Redis (which does not fail over): each worker adds
// itself on entry and removes itself on exit; the largest size seen proves an overlap.
const ENTER = `
redis.call('SADD', KEYS[1], ARGV[1])
local n = redis.call('SCARD', KEYS[1])
if n > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], n) end
return n`;

// Deletes the lock only while it still holds this worker's token.
const RELEASE_IF_MINE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface FailoverJob extends WorkerContext {
  /** Connection to the primary Sentinel names; it follows a failover by itself. */
  lockRedis: Redis;
  lockKey: string;
  /** This worker's own lock value. */
  token: string;
  /** Lease length in ms: longer than the run may last, so no lock here ever expires. */
  leaseMs: number;
  /** How long WAIT may block, in ms. */
  waitTimeoutMs: number;
  /** Starts the job under the lock: joins the holders and records the grant. */
  enter(): Promise<void>;
  /** Edits the document for workMs. */
  work(): Promise<void>;
  /** Runs the update and logs the attempt as PostgreSQL decided it; returns the rows updated. */
  write(sql: string, values: unknown[]): Promise<number>;
  /** Leaves the holders and releases the lock if it is still this worker's; returns the keys deleted. */
  release(): Promise<number>;
  /** Reports that the lock is taken, by whom, and that this worker skips the job. */
  denied(): Promise<void>;
  /** Reports that this worker does not run the job, and why. */
  skip(reason: string): Promise<void>;
}

/** Gives a worker context the document job's own operations. */
export function failoverJob(ctx: WorkerContext, lockRedis: Redis): FailoverJob {
  const workMs = intParam(ctx.params, 'workMs');
  const lockKey = ctx.key(LOCK_KEY);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;
  let grant = 0;
  const skip = async (reason: string): Promise<void> => {
    ctx.emit({ type: 'job-skipped', reason });
    await startOutage(ctx);
  };

  return {
    ...ctx,
    lockRedis,
    lockKey,
    token,
    leaseMs: deadlineMs(ctx.params),
    waitTimeoutMs: intParam(ctx.params, 'waitTimeoutMs'),
    async enter() {
      await ctx.redis.eval(ENTER, 2, ctx.key(HOLDERS_KEY), ctx.key(HOLDERS_MAX_KEY), ctx.workerId);
      // The order of grants as the lock service handed them out: what "stale" is measured against.
      const { rows } = await ctx.pg.query<{ grant_no: number }>('insert into grants (worker) values ($1) returning grant_no', [
        ctx.workerId,
      ]);
      grant = rows[0]!.grant_no;
      await startOutage(ctx);
    },
    async work() {
      ctx.emit({ type: 'work-started', label: 'edit the document' });
      await ctx.sleep(workMs);
      ctx.emit({ type: 'work-finished', label: 'edit the document' });
      await letNewerHoldersWriteFirst(ctx);
    },
    async write(sql, values) {
      await ctx.pg.query('begin');
      try {
        const updated = (await ctx.pg.query(sql, values)).rowCount ?? 0;
        // Stale: a newer grant than this writer's exists as PostgreSQL runs the update.
        await ctx.pg.query(
          `insert into write_attempts (worker, grant_no, accepted, stale)
           values ($1, $2, $3, exists (select 1 from grants where grant_no > $2))`,
          [ctx.workerId, grant, updated > 0],
        );
        await ctx.pg.query('commit');
        ctx.signal(`wrote:${ctx.workerId}`);
        return updated;
      } catch (error) {
        await ctx.pg.query('rollback');
        throw error;
      }
    },
    async release() {
      await ctx.redis.srem(ctx.key(HOLDERS_KEY), ctx.workerId);
      return Number(await lockRedis.eval(RELEASE_IF_MINE, 1, lockKey, token));
    },
    async denied() {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await lockRedis.get(lockKey) });
      await skip('another worker holds the lock');
    },
    skip,
  };
}
