// What a cron-clock-skew variant works with: the node's own clock, the schedule slot it
// believes is due, and the invoice batch itself, whose every run is a row in Postgres.
import { intParam, type WorkerContext } from '../types.js';
import { triedLatch, waitForNodesFiringDuringJob } from './choreography.js';
import { slotName } from './keys.js';
import { slotEndMs, type NodeClock, type Schedule } from './schedule.js';

/** A step of `runBatch` where the fault plan may strike, for the variants that declare it. */
export const AFTER_BATCH_ROW = 'after-batch-row';

export interface CronJob extends WorkerContext {
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
  /** Reports that the slot's lock is taken and this node skips the batch. */
  skip(key: string): Promise<void>;
}

/** `slot`: the slot this node fired for; `steps`: the variant's checkpoints. */
export function cronJob(ctx: WorkerContext, index: number, clock: NodeClock, schedule: Schedule, slot: number, steps: string[] = []): CronJob {
  const jobMs = intParam(ctx.params, 'jobMs');
  return {
    ...ctx,
    clock,
    slot: slotName(slot),
    slotEndMs: slotEndMs(schedule, slot),
    leaseMs: 30_000 + 2 * jobMs,
    async runBatch() {
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
    async skip(key) {
      ctx.emit({ type: 'lease-denied', key, heldBy: await ctx.redis.get(key) });
      ctx.emit({ type: 'job-skipped', reason: `another node holds the lock of ${slotName(slot)}` });
      ctx.signal(triedLatch(ctx.workerId));
    },
  };
}
