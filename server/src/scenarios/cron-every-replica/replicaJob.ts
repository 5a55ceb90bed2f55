// What a cron-every-replica variant works with: the replica's croner job as it fired, the
// slot it fired for by the replica's own clock, and the report itself, whose every send is
// a row in PostgreSQL.
import type { Cron } from 'croner';
import { intParam, type WorkerContext } from '../types.js';
import { triedLatch, waitForReplicasFiringDuringJob } from './choreography.js';
import { slotLockKey } from './keys.js';
import { slotName, SLOT_MS } from './schedule.js';

export interface ReplicaJob extends WorkerContext {
  /** This replica's croner job, in its run. */
  cron: Cron;
  /** The slot croner fired for, by this replica's clock: its run's time to the second, "02:31:05". */
  slot: string;
  /** When that slot ends, by this replica's clock (ms since the epoch). */
  slotEndMs: number;
  /** lock-per-slot's key (the run's): the report and the slot, "lock:report:02:31:05". */
  lockKey: string;
  /** Sends the report (jobMs), recorded in PostgreSQL; first the checkpoint `sending`. */
  sendReport(): Promise<void>;
  /** Reports that this replica leaves the slot's report to another, and why. */
  skip(reason: string): void;
}

/** `cron`: this replica's croner job, called back for its run; `index`: the replica's place in the run. */
export function replicaJob(ctx: WorkerContext, index: number, cron: Cron): ReplicaJob {
  // croner stamps its run with `new Date()`: this replica's clock, a few ms past the slot's start.
  const slotStartMs = Math.floor(cron.currentRun()!.getTime() / SLOT_MS) * SLOT_MS;
  const slot = slotName(new Date(slotStartMs));
  const jobMs = intParam(ctx.params, 'jobMs');
  return {
    ...ctx,
    cron,
    slot,
    slotEndMs: slotStartMs + SLOT_MS,
    lockKey: ctx.key(slotLockKey(slot)),
    async sendReport() {
      // Where a fault plan may kill a replica that has the slot (its key, its claim) and has sent nothing.
      await ctx.checkpoint('sending');
      ctx.signal(triedLatch(ctx.workerId));
      const { rows } = await ctx.pg.query<{ id: number }>('insert into reports (replica, slot) values ($1, $2) returning id', [
        ctx.workerId,
        slot,
      ]);
      // From here the report counts as sent, whatever becomes of the replica.
      const label = `send the report of ${slot}`;
      ctx.emit({ type: 'work-started', label });
      await ctx.sleep(jobMs);
      await waitForReplicasFiringDuringJob(ctx, index);
      await ctx.pg.query('update reports set finished_at = clock_timestamp() where id = $1', [rows[0]!.id]);
      ctx.emit({ type: 'write-accepted', target: 'reports', value: `${slot} by ${ctx.workerId}` });
      ctx.emit({ type: 'work-finished', label });
    },
    skip(reason) {
      ctx.emit({ type: 'job-skipped', reason });
      ctx.signal(triedLatch(ctx.workerId));
    },
  };
}
