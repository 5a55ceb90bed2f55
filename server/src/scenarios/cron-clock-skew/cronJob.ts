// What a cron-clock-skew variant works with: the node's own clock, the schedule slot it
// believes is due, and the invoice batch itself, whose every run is a row in Postgres.
import { randomUUID } from 'node:crypto';
import type { LeaseHolder } from '../kit/holdLease.js';
import { releaseIfMine } from '../kit/releaseIfMine.js';
import { intParam, type WorkerContext } from '../types.js';
import { triedLatch, waitForNodesFiringDuringJob } from './choreography.js';
import { LEASE_END_KEY, LOCK_KEY, slotKey, slotName } from './keys.js';
import { slotEndMs, type NodeClock, type Schedule } from './schedule.js';

/** A step of `runBatch` where the fault plan may strike, for the variants that declare it. */
export const AFTER_BATCH_ROW = 'after-batch-row';

/** Its lease: one lock per slot, as this node's clock names it, taken with a token of its own. */
export interface CronJob extends WorkerContext, LeaseHolder {
  /** This node's clock: behind node-1's by behindMs. */
  clock: NodeClock;
  /** The slot this node fired for, e.g. "slot-0". */
  slot: string;
  /** When that slot ends, by this node's clock (ms since the epoch). */
  slotEndMs: number;
  /** A lease far longer than the batch. */
  leaseMs: number;
  /** Runs the invoice batch for the slot (jobMs), recorded in Postgres. */
  runBatch(): Promise<void>;
  /** Reports that the slot's lock is taken and this node skips the batch; resolves to null, the grant it did not get. */
  skip(): Promise<null>;
}

/** The steps of lock-per-slot that its mutants replace. */
export interface SlotLockSteps {
  /** How long the slot's lock lives, in ms. */
  ttlMs(job: CronJob): number;
  /** Sets the slot's lock for `ttlMs`; 'OK' when this node has it. */
  set(job: CronJob, ttlMs: number): Promise<string | null>;
  /** After the batch, whatever becomes of it. */
  done(job: CronJob): Promise<void>;
}

/** `slot`: the slot this node fired for; `steps`: the variant's checkpoints. */
export function cronJob(
  ctx: WorkerContext,
  index: number,
  clock: NodeClock,
  schedule: Schedule,
  slot: number,
  steps: string[] = [],
): CronJob {
  const jobMs = intParam(ctx.params, 'jobMs');
  const lockKey = ctx.key(slotKey(LOCK_KEY, slot));
  const token = `${ctx.workerId}:${randomUUID()}`;
  // The lease this node asked for ends at the clock reading it sized it from plus its length:
  // the variant reads the clock, sets the key, then reports the lease (lease-acquired).
  let lastReadingMs = Number.NaN;
  let leaseEndMs = Number.NaN;
  return {
    ...ctx,
    lockKey,
    token,
    clock: {
      behindMs: clock.behindMs,
      now: () => (lastReadingMs = clock.now()),
    },
    emit(event) {
      if (event.type === 'lease-acquired' && event.key === lockKey && event.ttlMs !== null)
        leaseEndMs = lastReadingMs + event.ttlMs + clock.behindMs;
      ctx.emit(event);
    },
    slot: slotName(slot),
    slotEndMs: slotEndMs(schedule, slot),
    leaseMs: 30_000 + 2 * jobMs,
    async runBatch() {
      // For the nodes after it (settleExpiringLock): the end this lease was asked for, in true
      // time, which a reading of the key's life would give a few ms long.
      if (Number.isFinite(leaseEndMs)) await ctx.redis.set(ctx.key(slotKey(LEASE_END_KEY, slot)), String(leaseEndMs));
      ctx.signal(triedLatch(ctx.workerId));
      const { rows } = await ctx.pg.query<{ id: number }>('insert into batch_runs (node, slot) values ($1, $2) returning id', [
        ctx.workerId,
        slotName(slot),
      ]);
      // From here the batch counts as running until its row has an end, whatever becomes of the node.
      if (steps.includes(AFTER_BATCH_ROW)) await ctx.checkpoint(AFTER_BATCH_ROW);
      const label = `invoice batch, ${slotName(slot)}`;
      ctx.emit({ type: 'work-started', label });
      await ctx.sleep(jobMs);
      await waitForNodesFiringDuringJob(ctx, index);
      await ctx.pg.query('update batch_runs set finished_at = clock_timestamp() where id = $1', [rows[0]!.id]);
      ctx.emit({ type: 'write-accepted', target: 'batch_runs', value: `${slotName(slot)} by ${ctx.workerId}` });
      ctx.emit({ type: 'work-finished', label });
    },
    async skip() {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: await ctx.redis.get(lockKey) });
      ctx.emit({ type: 'job-skipped', reason: `another node holds the lock of ${slotName(slot)}` });
      ctx.signal(triedLatch(ctx.workerId));
      return null;
    },
    enter: async () => undefined,
    release: () => releaseIfMine(ctx.redis, lockKey, token),
  };
}
