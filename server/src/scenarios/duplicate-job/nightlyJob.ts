// What a duplicate-job variant works with: the worker context plus the job itself.
// The job builds a report (a row in `reports`, stamped by PostgreSQL when it starts) and
// sends it: a row in `emails` that must name its report. The verdict counts the e-mails
// and, from the two rows' store-side times, how many containers were building at once.
import { choiceParam, intParam, type WorkerContext } from '../types.js';

/** The lock key of the plain variants; token-lua adds the entity and the date. */
export const LOCK_KEY = 'lock:nightly-report';
/** The entity the nightly report is about. */
export const ENTITY = 'acme';
// Who arrives first and second when containers arrive late.
const FIRST = 'worker-1';
const SECOND = 'worker-2';
const triedLatch = (worker: string): string => `tried:${worker}`;

export interface NightlyJob extends WorkerContext {
  entity: string;
  /** Lease length in ms. */
  leaseMs: number;
  /** Does the job's work (workMs) and sends the report e-mail. */
  sendReport(): Promise<void>;
  /** Reports that the lock is taken and this container skips the job; heldBy is read from Redis when not given. */
  skip(key: string, heldBy?: string | null): Promise<void>;
  /** Reports that this container queues for the lock instead of skipping. */
  queue(key: string): Promise<void>;
}

/** Gives a worker context the nightly job's own operations. */
export function nightlyJob(ctx: WorkerContext): NightlyJob {
  const workMs = intParam(ctx.params, 'workMs');
  const leaseMs = intParam(ctx.params, 'leaseMs');
  // "Together" means every container tries the lock while the first holder still holds
  // it: the holder waits until all have tried, so the race never depends on scheduling.
  const together = choiceParam(ctx.params, 'arrival') === 'together';
  const attempted = (): Promise<void> => {
    if (together) return ctx.barrier('attempted');
    ctx.signal(triedLatch(ctx.workerId));
    return Promise.resolve();
  };
  // "Late" means worker-2 fires once worker-1's lease is gone. When the parameters say the
  // work outlasts the lease, worker-1 finishes only after worker-2 has tried, so a starved
  // process can never let worker-1 finish first and turn the overrun into a clean handover.
  const overrun = !together && ctx.workerId === FIRST && ctx.workerIds.includes(SECOND) && workMs > leaseMs;
  return {
    ...ctx,
    entity: ENTITY,
    leaseMs,
    async sendReport() {
      // The report is started before the 'attempted' barrier: nobody sends before every
      // container that gets in has started, so the overlap is the same on every run however
      // the processes are scheduled (a short workMs on a busy machine included).
      const report = await ctx.pg.query<{ id: number }>(
        'insert into reports (worker, entity, report_date) values ($1, $2, $3) returning id',
        [ctx.workerId, ENTITY, ctx.date],
      );
      await attempted();
      ctx.emit({ type: 'work-started', label: 'build the report' });
      await ctx.checkpoint('working');
      await ctx.sleep(workMs);
      if (overrun) await ctx.waitFor(triedLatch(SECOND), `done:${SECOND}`);
      await ctx.pg.query('insert into emails (worker, entity, report_date, report_id) values ($1, $2, $3, $4)', [
        ctx.workerId,
        ENTITY,
        ctx.date,
        report.rows[0]!.id,
      ]);
      await ctx.checkpoint('report-sent'); // a fault here kills the container before it says anything more
      ctx.emit({ type: 'write-accepted', target: 'email', value: `report ${ENTITY} ${ctx.date}` });
      ctx.emit({ type: 'work-finished', label: 'build the report' });
    },
    async skip(key, heldBy) {
      ctx.emit({ type: 'lease-denied', key, heldBy: heldBy === undefined ? await ctx.redis.get(key) : heldBy });
      ctx.emit({ type: 'job-skipped', reason: 'another container holds the lock' });
      await attempted();
    },
    async queue(key) {
      ctx.emit({ type: 'lease-wait-started', key });
      await attempted();
    },
  };
}
