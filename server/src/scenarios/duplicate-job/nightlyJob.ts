// What a duplicate-job variant works with: the worker context plus the job itself.
// The job builds a report (a row in `reports`, stamped by PostgreSQL when it starts) and
// sends it: a row in `emails` that must name its report. The verdict counts the e-mails
// and, from the two rows' store-side times, how many containers were building at once.
import { readKeyValue } from '../keyValue.js';
import type { Params } from '@racelab/shared';
import { choiceParam, intParam, type WorkerContext } from '../types.js';
import { doneLatch, keyGoneLatch } from '../../worker/latches.js';

/** The lock key of the plain variants; token-lua adds the entity and the date. */
export const LOCK_KEY = 'lock:nightly-report';
/** The entity the nightly report is about. */
export const ENTITY = 'acme';
// Who arrives first and second when containers arrive late.
const FIRST = 'worker-1';
const SECOND = 'worker-2';
const triedLatch = (worker: string): string => `tried:${worker}`;
// Names the container whose data fetch fails (failure "first-fails"): the first to start the job.
const FAILING_FETCH_KEY = 'fault:failing-fetch';
const FAILING_FETCH_BACKSTOP_MS = 600_000; // the run's cleanup deletes it long before

/** Every lock key a variant may take for this night: the plain one and token-lua's. */
export const lockKeys = (date: string): string[] => [LOCK_KEY, `${LOCK_KEY}:${ENTITY}:${date}`];

/** The job's data fetch failed (failure "first-fails"): the job throws inside its critical section. */
export class FetchFailed extends Error {}

export interface NightlyJob extends WorkerContext {
  entity: string;
  /** Lease length in ms. */
  leaseMs: number;
  /**
   * Does the job's work (workMs) and sends the report e-mail; throws FetchFailed when this
   * container's fetch fails. `lock.renews`: the lock keeps its own lease alive, so it never
   * lapses mid-job however long the work takes.
   */
  sendReport(lock?: { renews: boolean }): Promise<void>;
  /** Reports that the lock is taken and this container skips the job; heldBy is read from Redis when not given. */
  skip(key: string, heldBy?: string | null): Promise<void>;
  /** Reports that this container queues for the lock instead of skipping. */
  queue(key: string): Promise<void>;
}

/** The steps of token-lua that its mutants replace: the lock's value, taking it, releasing it. */
export interface LockSteps {
  token(job: NightlyJob): string;
  /** SET the lock `key` to `token` for the lease; 'OK' when taken. */
  take(job: NightlyJob, key: string, token: string): Promise<'OK' | null>;
  /** Deletes the lock if it is this holder's; returns the keys deleted. */
  release(job: NightlyJob, key: string, token: string): Promise<number>;
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
  // Only a lock that expires can pass on early: with none (no lock, an advisory lock, a key
  // without expiry, a lock that renews itself) worker-2 fires when worker-1 is done, and
  // waiting for it would never end.
  const mayOverrun = !together && ctx.workerId === FIRST && ctx.workerIds.includes(SECOND) && workMs > leaseMs;
  const leaseLapses = async (): Promise<boolean> =>
    (await Promise.all(lockKeys(ctx.date).map((k) => ctx.redis.pttl(ctx.key(k))))).some((ttl) => ttl > 0);
  const overrun = async (lapses: boolean): Promise<void> => {
    if (lapses) await ctx.waitFor(triedLatch(SECOND), doneLatch(SECOND));
  };
  // Arriving late, worker-2 sends only once the rest have tried: they always find it
  // still building, however the processes are scheduled.
  const letTheRestTry = async (): Promise<void> => {
    if (together || ctx.workerId !== SECOND) return;
    for (const other of ctx.workerIds.slice(2)) await ctx.waitFor(triedLatch(other), doneLatch(other));
  };
  // Failure "first-fails": the first container to start the job, whoever it is (worker-1
  // when arriving late), has its fetch fail; decided once per run in Redis.
  const fetchFails = async (): Promise<boolean> =>
    choiceParam(ctx.params, 'failure') === 'first-fails' &&
    (await ctx.redis.set(ctx.key(FAILING_FETCH_KEY), ctx.workerId, 'PX', FAILING_FETCH_BACKSTOP_MS, 'NX')) === 'OK';

  return {
    ...ctx,
    entity: ENTITY,
    leaseMs,
    async sendReport(lock = { renews: false }) {
      const lapses = mayOverrun && !lock.renews && (await leaseLapses());
      if (await fetchFails()) {
        // The fetch comes before the report: a container whose fetch fails never builds one.
        await attempted();
        ctx.emit({ type: 'work-started', label: 'fetch the data' });
        await ctx.checkpoint('working');
        await ctx.sleep(workMs);
        await overrun(lapses);
        ctx.emit({ type: 'call-finished', target: 'data source', status: 503, durationMs: workMs });
        ctx.emit({ type: 'work-finished', label: 'fetch the data' });
        throw new FetchFailed('the data source answered 503');
      }
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
      await overrun(lapses);
      await letTheRestTry();
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
      ctx.emit({ type: 'lease-denied', key, heldBy: heldBy === undefined ? await readKeyValue(ctx.redis, key) : heldBy });
      ctx.emit({ type: 'job-skipped', reason: 'another container holds the lock' });
      await attempted();
    },
    async queue(key) {
      ctx.emit({ type: 'lease-wait-started', key });
      await attempted();
    },
  };
}

/**
 * Least time worker-2's lease must have left, by the parameters, when the rest fire for them
 * to try it at once, in ms: with less, how late the machine lets them wake would decide
 * whether they find it, so they let it lapse first.
 */
export const REST_MARGIN_MS = 250;

/**
 * What worker-2's lease has left, by the parameters, when the rest fire (arriving late):
 * worker-2 takes the lock when worker-1's is gone (released when its work ends, or lapsed
 * after leaseMs), the rest fire when worker-1's work ends. Zero or less: it has lapsed.
 */
export function secondLeaseLeftMs(params: Params): number {
  const workMs = intParam(params, 'workMs');
  const leaseMs = intParam(params, 'leaseMs');
  return workMs < leaseMs ? leaseMs : 2 * leaseMs - workMs;
}

/**
 * When a container fires, by the run's arrival: together, all at once; late, worker-1
 * first, worker-2 once worker-1's lock is gone, the rest once worker-1 is done and
 * worker-2 has tried (and, when worker-2's lease is then within REST_MARGIN_MS of its end,
 * once it has surely ended, and then one after another, each once the one before is done:
 * leases that short would otherwise let the machine's timing decide who finds whose).
 */
export async function fireWhenDue(ctx: WorkerContext): Promise<void> {
  if (choiceParam(ctx.params, 'arrival') === 'together') return ctx.barrier('cron');
  if (ctx.workerId === FIRST) return;
  if (ctx.workerId === SECOND) {
    await ctx.waitFor(...lockKeys(ctx.date).map(keyGoneLatch), doneLatch(FIRST));
    return;
  }
  await ctx.waitFor(doneLatch(FIRST));
  await ctx.waitFor(triedLatch(SECOND), doneLatch(SECOND));
  const leftMs = secondLeaseLeftMs(ctx.params);
  if (leftMs >= REST_MARGIN_MS) return;
  const reason = `choreography: worker-2's lease has ${Math.max(0, leftMs)} ms left (less than ${REST_MARGIN_MS} ms), let it lapse`;
  ctx.emit({ type: 'wait-started', reason });
  await ctx.sleep(Math.max(0, leftMs) + REST_MARGIN_MS);
  const index = ctx.workerIds.indexOf(ctx.workerId);
  if (index > 2) await ctx.waitFor(doneLatch(ctx.workerIds[index - 1]!));
  ctx.emit({ type: 'wait-finished', reason });
}
