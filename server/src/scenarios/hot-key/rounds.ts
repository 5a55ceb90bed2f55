// The choreography of a hot-key run. A job's round is how many jobs of its customer had
// started before it. A job does not finish its work until every other customer with jobs
// left has started its job of the same round — unless all of that customer's jobs still
// to start are queued on the very lock this job holds, and cannot start before it lets
// go. So the jobs that may run side by side always do, and no customer's jobs drift a job
// length ahead of another's, however busy the machine: each run gives the same figures. A job
// that skips (a near-miss gives up on a taken lock) will never start: it counts as started
// for its customer's rounds, or the jobs of the round would wait for it to the run's deadline.
import type { WorkerContext } from '../types.js';
import { STARTED_KEY, STATE_KEY } from './keys.js';
import type { PlannedJob } from './jobPlan.js';

const POLL_MS = 5;

/** Records that a job waits for a lock (its name without the run prefix). */
export async function markWaiting(ctx: WorkerContext, job: PlannedJob, lockName: string): Promise<void> {
  await ctx.redis.hset(ctx.key(STATE_KEY), job.id, `waits:${lockName}`);
}

/** Records that a job has started its work; returns its round. */
export function markStarted(ctx: WorkerContext, job: PlannedJob): Promise<number> {
  return countInRound(ctx, job, 'started');
}

/** Records that a job skipped: its customer's round goes on without it. */
export async function markSkipped(ctx: WorkerContext, job: PlannedJob): Promise<void> {
  await countInRound(ctx, job, 'skipped');
}

/** The job's state, and one more of its customer's jobs counted as started; returns the job's round. */
async function countInRound(ctx: WorkerContext, job: PlannedJob, state: 'started' | 'skipped'): Promise<number> {
  const replies = await ctx.redis.multi().hset(ctx.key(STATE_KEY), job.id, state).hincrby(ctx.key(STARTED_KEY), job.entity, 1).exec();
  return Number(replies?.[1]?.[1]) - 1;
}

/** Waits until each other customer has started its job of this round, or queues all its rest on `lockName`. */
export async function waitForRound(
  ctx: WorkerContext,
  job: PlannedJob,
  round: number,
  plan: PlannedJob[],
  lockName: string,
): Promise<void> {
  const byEntity = new Map<string, string[]>();
  for (const p of plan) if (p.entity !== job.entity) byEntity.set(p.entity, [...(byEntity.get(p.entity) ?? []), p.id]);
  const pending = [...byEntity].filter(([, ids]) => ids.length > round);
  if (pending.length === 0) return;
  for (;;) {
    const [started, states] = await Promise.all([ctx.redis.hgetall(ctx.key(STARTED_KEY)), ctx.redis.hgetall(ctx.key(STATE_KEY))]);
    const ready = pending.every(
      ([entity, ids]) =>
        Number(started[entity] ?? 0) > round || ids.every((id) => states[id] === 'started' || states[id] === `waits:${lockName}`),
    );
    if (ready) return;
    await ctx.sleep(POLL_MS);
  }
}
