// What a stalled-job variant works with: a real bullmq Worker on the run's own queue, and the
// job it runs. worker-1 adds one job (charge order 42) and its Worker takes it; then, as `fault`
// says, the server stops worker-1 (SIGSTOP) for pauseMs in the handler's call to the payment
// provider, or worker-1 blocks its own event loop there for as long, or the server kills it
// (SIGKILL) after its charge, before bullmq completes the job. worker-2's Worker starts once
// worker-1 holds the job: its stalled-job checker finds the job's lock expired (lockDurationMs,
// renewed by a timer that neither a stopped process nor a blocked loop runs), moves the job
// back to wait, and worker-2 runs it too. worker-1, going on, finds its lock gone and lets
// worker-2 finish its charge before its own handler goes on: the order of the two charges is
// the same on every run.
import type { Job as BullJob, Worker as BullWorker } from 'bullmq';
import { doneLatch } from '../../worker/latches.js';
import { choiceParam, intParam, type WorkerContext } from '../types.js';
import { blockEventLoop } from '../kit/blockEventLoop.js';
import { FIRST, handled, SECOND, TAKEN } from '../kit/queueLatches.js';

/** The queue's name and its one job's id (bullmq's jobId): the order the charge is for. */
export const QUEUE = 'charges';
export const JOB_ID = 'order-42';
/** bullmq's key prefix under the run's (the run's Redis user reaches no other keys). */
export const BULL_PREFIX = 'bull';
/** The job's lock key and its hash, as bullmq names them, without the run's prefix. */
export const LOCK_KEY = `${BULL_PREFIX}:${QUEUE}:${JOB_ID}:lock`;
export const JOB_KEY = `${BULL_PREFIX}:${QUEUE}:${JOB_ID}`;
/** How long the provider call takes when nothing stops the worker, in ms. */
export const CALL_MS = 100;

/** One run of the job, as the handler sees it. */
export interface QueuedJob {
  /** bullmq's job id: the same for every attempt. */
  id: string;
  /** bullmq's attemptsStarted: 1 for the first worker to run the job, 2 for the one that runs it again. */
  attempt: number;
  /** The call to the payment provider; worker-1 is stopped in it past the job's lock. */
  callProvider(): Promise<void>;
}

export interface ChargeQueue extends WorkerContext {
  /** Runs a bullmq Worker on the run's queue with this handler until the job is settled. */
  process(handler: (job: QueuedJob) => Promise<void>): Promise<void>;
}

/** What happens to worker-1 mid-job: stopped or its event loop blocked in the call, or killed after its charge. */
export type Fault = 'stall' | 'block' | 'kill';

/** bullmq's timings: the lock's length, and the stalled-job check every half of it; worker-1's pause and fault. */
export function queueTimings(params: WorkerContext['params']): {
  lockDurationMs: number;
  stalledIntervalMs: number;
  pauseMs: number;
  fault: Fault;
} {
  const lockDurationMs = intParam(params, 'lockDurationMs');
  const fault = choiceParam(params, 'fault');
  return {
    lockDurationMs,
    stalledIntervalMs: Math.round(lockDurationMs / 2),
    pauseMs: intParam(params, 'pauseMs'),
    fault: fault === 'block' || fault === 'kill' ? fault : 'stall',
  };
}

/** Gives a worker context the queue's own operations. */
export function chargeQueue(ctx: WorkerContext): ChargeQueue {
  return { ...ctx, process: (handler) => processJobs(ctx, handler) };
}

async function processJobs(ctx: WorkerContext, handler: (job: QueuedJob) => Promise<void>): Promise<void> {
  // Loaded here, not at the top: only this scenario's runs pay for bullmq (its own chunk of the worker bundle).
  const { Queue, Worker } = await import('bullmq');
  // bullmq's Worker needs a connection that waits as long as it takes (no retry count); its blocking one is a duplicate.
  const connection = ctx.redis.duplicate({ maxRetriesPerRequest: null });
  const prefix = ctx.key(BULL_PREFIX);
  if (ctx.workerId === FIRST) {
    const queue = new Queue(QUEUE, { connection, prefix });
    await queue.add('charge', { order: 42, cents: 1999 }, { jobId: JOB_ID });
    await queue.close();
  } else {
    await ctx.waitFor(TAKEN);
  }
  const { lockDurationMs, stalledIntervalMs } = queueTimings(ctx.params);
  const worker: BullWorker = new Worker(QUEUE, (job: BullJob, token?: string) => runJob(ctx, handler, job, token ?? ''), {
    connection,
    prefix,
    lockDuration: lockDurationMs,
    stalledInterval: stalledIntervalMs,
    maxStalledCount: 1,
    concurrency: 1,
  });
  reportWorkerEvents(ctx, worker);
  // worker-1 is done once its handler is; worker-2 once worker-1's is (it ran the job first, if at
  // all), or, when worker-1 was killed mid-job, once its own is: the job was its to run again.
  const first = await ctx.waitFor(handled(FIRST), doneLatch(FIRST));
  if (first !== handled(FIRST)) await ctx.waitFor(handled(SECOND));
  await worker.close();
  await connection.quit();
}

function reportWorkerEvents(ctx: WorkerContext, worker: BullWorker): void {
  worker.on('stalled', (jobId) => ctx.emit({ type: 'note', text: `bullmq: job ${jobId} stalled (its lock expired); moved back to wait` }));
  worker.on('error', (error) => ctx.emit({ type: 'note', text: `bullmq: ${error.message}` }));
  worker.on('failed', (job, error) => ctx.emit({ type: 'note', text: `bullmq: job ${job?.id ?? '?'} failed: ${error.message}` }));
  worker.on('completed', (job) => ctx.emit({ type: 'note', text: `bullmq: job ${job.id ?? '?'} completed` }));
}

async function runJob(ctx: WorkerContext, handler: (job: QueuedJob) => Promise<void>, job: BullJob, token: string): Promise<void> {
  const { lockDurationMs } = queueTimings(ctx.params);
  ctx.emit({ type: 'job-fired' });
  // bullmq set the lock when it moved the job to active, stamped processedOn (this host's wall clock) as it sent that command.
  const fromMs = Math.max(0, ctx.now() - Math.max(0, Date.now() - (job.processedOn ?? Date.now())));
  ctx.emit({ type: 'lease-acquired', key: LOCK_KEY, ttlMs: lockDurationMs, fromMs, token, fence: job.attemptsStarted });
  ctx.signal(TAKEN);
  await handler({ id: job.id ?? JOB_ID, attempt: job.attemptsStarted, callProvider: () => callProvider(ctx, token) });
  // Killed here, its charge (if it committed) stays, and bullmq never hears the job completed:
  // the job stays active until its lock expires, and the stalled-job check hands it on.
  if (ctx.workerId === FIRST) {
    await ctx.checkpoint('completing');
    if (queueTimings(ctx.params).fault === 'kill') await ctx.die();
  }
  ctx.signal(handled(ctx.workerId));
}

/**
 * The provider call. worker-1 is stopped in it for pauseMs (SIGSTOP), or blocks its event loop
 * for as long: either way no timer of its process, bullmq's lock renewal included, runs. When
 * its lock is gone on its return, another worker has the job, and worker-1 goes on once that
 * one's handler is done.
 */
async function callProvider(ctx: WorkerContext, token: string): Promise<void> {
  ctx.emit({ type: 'work-started', label: 'call the payment provider' });
  const { pauseMs, fault } = queueTimings(ctx.params);
  if (ctx.workerId === FIRST) await ctx.checkpoint('calling');
  if (ctx.workerId !== FIRST || fault === 'kill') {
    await ctx.sleep(CALL_MS);
    ctx.emit({ type: 'work-finished', label: 'call the payment provider' });
    return;
  }
  if (fault === 'block') blockEventLoop(ctx, pauseMs);
  else await ctx.stall(pauseMs);
  const holder = await ctx.redis.get(ctx.key(LOCK_KEY));
  if (holder !== token) {
    ctx.emit({
      type: 'note',
      text: `the job's lock is ${holder === null ? 'gone' : 'held by another run of the job'}: bullmq gave the job to another worker`,
    });
    await ctx.waitFor(handled(SECOND));
  }
  ctx.emit({ type: 'work-finished', label: 'call the payment provider' });
}

/** Least distance of the pause from the lock's edges, in ms: closer, the machine's timing would decide whether the job stalls. */
export const PAUSE_MARGIN_MS = 300;

/**
 * Why a pause this close to the lock would make the verdict luck, or null. A pause shorter
 * than the lock by PAUSE_MARGIN_MS keeps it; one longer than the lock and two stalled-job
 * checks after it, by the same margin, has surely lost the job.
 */
export function pauseAtTheEdge(params: WorkerContext['params']): string | null {
  const { lockDurationMs, stalledIntervalMs, pauseMs, fault } = queueTimings(params);
  if (fault === 'kill') return null;
  const keeps = lockDurationMs - PAUSE_MARGIN_MS;
  const loses = lockDurationMs + 2 * stalledIntervalMs + PAUSE_MARGIN_MS;
  if (pauseMs <= keeps || pauseMs >= loses) return null;
  return `a pause of ${pauseMs} ms is too close to the ${lockDurationMs} ms lock and its stalled-job checks: use at most ${keeps} ms (the lock holds) or at least ${loses} ms (the job surely stalls)`;
}
