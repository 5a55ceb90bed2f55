// What an expired-job variant works with: a real pg-boss instance on the run's own schema, and
// the job it fetches. worker-1 sends one job (charge order 42) and fetches it; then, as `fault`
// says, the server stops worker-1 (SIGSTOP) for pauseMs in the work before the charge, or kills
// it (SIGKILL) after its charge, as it is about to complete the job. pg-boss has no lock to
// renew: a job active longer than its expireInSeconds is failed by the maintenance that
// worker-2's pg-boss runs every second, put back for retry, and worker-2 fetches it and runs it
// too. A stopped worker-1, continued, finds the job gone from its hands and lets worker-2 finish
// before its own handler goes on: the order of the two charges is the same on every run.
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { doneLatch } from '../../worker/latches.js';
import { choiceParam, intParam, type WorkerContext } from '../types.js';
import { FIRST, handled, SECOND, TAKEN } from '../kit/queueLatches.js';

/** The queue's name: pg-boss's tables in the run's schema hold its one job. */
export const QUEUE = 'charges';
/** What the timeline calls the job's hold on its run: from the fetch to the completion, or the expiry. */
export const JOB_LEASE = `${QUEUE} job`;
/** The order the job charges. */
export const ORDER = 42;
/** How often each worker's pg-boss runs its maintenance (expiry included), in s: pg-boss's least. */
export const MAINTENANCE_S = 1;
/** How often worker-2 asks pg-boss for a job, in ms (pg-boss's own polling may not go below 500 ms). */
export const POLL_MS = 500;
/** How long the work before the charge takes when nothing stops the worker, in ms. */
export const WORK_MS = 100;

/** One run of the job, as the handler sees it. */
export interface QueuedJob {
  /** pg-boss's job id (a uuid): the same for every attempt. */
  id: string;
  /** 1 for the first fetch of the job, 2 for the retry (pg-boss's retry_count + 1). */
  attempt: number;
  /** The work before the charge; worker-1 is stopped in it past the job's expiry (fault stall). */
  prepare(): Promise<void>;
  /**
   * Completes the job through pg-boss: on `client` when given (in its transaction), on
   * pg-boss's own connection otherwise. worker-1 is killed here (fault kill), before it sends the completion. True when pg-boss moved the job to completed; false
   * when the job was no longer active (expired, or completed by another attempt).
   */
  complete(client?: pg.Client): Promise<boolean>;
}

export interface ChargeQueue extends WorkerContext {
  /** Runs this worker's part of the queue: fetches the job and hands it to the handler. */
  process(handler: (job: QueuedJob) => Promise<void>): Promise<void>;
}

/** What happens to worker-1 mid-job: stopped before its charge, or killed after it. */
export type Fault = 'stall' | 'kill';

/** The job's expiry and worker-1's pause, in ms, and the fault. */
export function queueTimings(params: WorkerContext['params']): { expireMs: number; pauseMs: number; fault: Fault } {
  return {
    expireMs: intParam(params, 'expireInSeconds') * 1000,
    pauseMs: intParam(params, 'pauseMs'),
    fault: choiceParam(params, 'fault') === 'kill' ? 'kill' : 'stall',
  };
}

/** Gives a worker context the queue's own operations. */
export function chargeQueue(ctx: WorkerContext): ChargeQueue {
  return { ...ctx, process: (handler) => processJobs(ctx, handler) };
}

async function processJobs(ctx: WorkerContext, handler: (job: QueuedJob) => Promise<void>): Promise<void> {
  // Loaded here, not at the top: only this scenario's runs pay for pg-boss (its own chunk of the worker bundle).
  const { default: Boss } = await import('pg-boss');
  const schema = String(ctx.shared.schema);
  // pg-boss's own pool (two connections), as the run's role: the worker's own connection stays the handler's.
  const boss = new Boss({
    connectionString: process.env.RACELAB_DATABASE_URL,
    schema,
    max: 2,
    application_name: `racelab-worker ${schema} ${ctx.workerId} pg-boss`,
    migrate: false,
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: MAINTENANCE_S,
  });
  boss.on('error', (error: Error) => ctx.emit({ type: 'note', text: `pg-boss: ${error.message}` }));
  await boss.start();
  let firstHandled = false;
  void ctx.waitFor(handled(FIRST)).then(() => (firstHandled = true));
  // worker-1 is done with the job once its handler is, or once its process has ended (killed:
  // then the job stays active until it expires, and worker-2 runs it).
  const firstDone = (): Promise<string> => ctx.waitFor(handled(FIRST), doneLatch(FIRST));
  if (ctx.workerId === FIRST) {
    const { expireMs } = queueTimings(ctx.params);
    await boss.send(QUEUE, { order: ORDER, cents: 1999 }, { expireInSeconds: expireMs / 1000, retryLimit: 1, retryDelay: 0 });
    const [job] = await boss.fetch<object>(QUEUE, { includeMetadata: true });
    if (!job) throw new Error('pg-boss gave worker-1 no job');
    await runJob(ctx, boss, handler, job);
  } else {
    await ctx.waitFor(TAKEN);
    // worker-2 asks for the job until it gets it (after the expiry) or worker-1 has completed it.
    while (!firstHandled) {
      const [job] = await boss.fetch<object>(QUEUE, { includeMetadata: true });
      if (job) {
        ctx.emit({ type: 'note', text: `pg-boss: fetched job ${job.id} again (retry ${job.retryCount})` });
        await runJob(ctx, boss, handler, job);
        break;
      }
      await ctx.sleep(POLL_MS);
    }
  }
  await firstDone();
  await boss.stop({ graceful: false });
}

async function runJob(
  ctx: WorkerContext,
  boss: PgBoss,
  handler: (job: QueuedJob) => Promise<void>,
  job: PgBoss.JobWithMetadata,
): Promise<void> {
  const { expireMs } = queueTimings(ctx.params);
  const attempt = job.retryCount + 1;
  ctx.emit({ type: 'job-fired' });
  // pg-boss stamped started_on with PostgreSQL's now() as it fetched the job; the expiry counts from it.
  const fromMs = Math.max(0, ctx.now() - Math.max(0, Date.now() - new Date(job.startedOn).getTime()));
  ctx.emit({ type: 'lease-acquired', key: JOB_LEASE, ttlMs: expireMs, fromMs, token: job.id, fence: attempt });
  ctx.signal(TAKEN);
  await handler({
    id: job.id,
    attempt,
    prepare: () => prepare(ctx, job.id, job.retryCount),
    complete: (client) => complete(ctx, boss, job.id, client),
  });
  ctx.signal(handled(ctx.workerId));
}

/**
 * The work before the charge. worker-1 is stopped in it for pauseMs (fault stall; SIGSTOP: nothing of its
 * process runs); when, on its return, pg-boss's row says the job is no longer its attempt's
 * (expired, or fetched again), another worker has the job, and worker-1 goes on once that
 * one's handler is done.
 */
async function prepare(ctx: WorkerContext, id: string, retryCount: number): Promise<void> {
  ctx.emit({ type: 'work-started', label: 'price the order' });
  if (ctx.workerId === FIRST) await ctx.checkpoint('working');
  if (ctx.workerId !== FIRST || queueTimings(ctx.params).fault === 'kill') {
    await ctx.sleep(WORK_MS);
    ctx.emit({ type: 'work-finished', label: 'price the order' });
    return;
  }
  await ctx.stall(queueTimings(ctx.params).pauseMs);
  const { rows } = await ctx.pg.query<{ state: string; retry_count: number }>('select state, retry_count from job where id = $1', [id]);
  const row = rows[0];
  if (row?.state !== 'active' || row.retry_count !== retryCount) {
    ctx.emit({
      type: 'note',
      text: `pg-boss expired the job and gave it to another worker (its row now: ${row?.state ?? 'gone'}, retry ${row?.retry_count ?? '?'})`,
    });
    await ctx.waitFor(handled(SECOND));
  }
  ctx.emit({ type: 'work-finished', label: 'price the order' });
}

async function complete(ctx: WorkerContext, boss: PgBoss, id: string, client?: pg.Client): Promise<boolean> {
  await ctx.checkpoint('completing');
  // Killed here, its charge (if it committed) stays; the job stays active until it expires.
  if (ctx.workerId === FIRST && queueTimings(ctx.params).fault === 'kill') await ctx.die();
  const db = client && { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
  // pg-boss 10 answers { jobs, requested, affected } (its types say void): affected is 0 unless the job was active.
  const answer = (await boss.complete(QUEUE, id, { worker: ctx.workerId }, db ? { db } : undefined)) as unknown as { affected: number };
  const completed = answer.affected === 1;
  // Completing the job is what gives it up: pg-boss's answer says whether this attempt still had it.
  ctx.emit({ type: 'lease-released', key: JOB_LEASE, deleted: answer.affected });
  ctx.emit({ type: 'note', text: completed ? 'pg-boss: job completed' : 'pg-boss: completion refused (the job is no longer active)' });
  return completed;
}

/** Least distance of the pause from the expiry's edges, in ms: closer, the machine's timing would decide whether the job is retried. */
export const PAUSE_MARGIN_MS = 500;

/**
 * Why a pause this close to the job's expiry would make the verdict luck, or null. A pause
 * shorter than the expiry by PAUSE_MARGIN_MS completes the job in time; one longer than the
 * expiry and two maintenance intervals (a tick finds the last one less than a second ago and
 * skips), by the same margin, has surely lost it.
 */
export function pauseAtTheEdge(params: WorkerContext['params']): string | null {
  const { expireMs, pauseMs, fault } = queueTimings(params);
  if (fault === 'kill') return null;
  const keeps = expireMs - PAUSE_MARGIN_MS;
  const loses = expireMs + 2 * MAINTENANCE_S * 1000 + PAUSE_MARGIN_MS;
  if (pauseMs <= keeps || pauseMs >= loses) return null;
  return `a pause of ${pauseMs} ms is too close to the job's ${expireMs} ms expiry and pg-boss's maintenance: use at most ${keeps} ms (the job completes in time) or at least ${loses} ms (the job is surely retried)`;
}
