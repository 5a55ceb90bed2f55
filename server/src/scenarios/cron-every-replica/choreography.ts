// What makes every run with the same parameters tell the same story. Each replica's croner
// fires when its own clock reaches the slot; these waits only hold back what scheduling
// noise could reorder, so the run plays out as the parameters say it would on a quiet machine:
//  - once every replica is up, replica-1 fixes the first slot (a run of the schedule at
//    least LEAD_MS away, on its clock, the true one), and every replica schedules that one;
//  - replicas try in the order they fire; one that fires after an earlier replica's job
//    has ended (by the schedule) waits for that replica to be done, and a replica whose job
//    is still running when a later one fires waits for that one to try before its job ends;
//  - a replica due while the slot lasts that reaches its try only as the slot ends (by the
//    true clock, when a lock held for the slot expires) fails the run as too busy, rather
//    than tell another story.
import { intParam, type WorkerContext } from '../types.js';
import { doneLatch } from '../../worker/latches.js';
import { FIRST_SLOT_KEY } from './keys.js';
import { dueAtMs, SLOT_MS } from './schedule.js';

/** The first slot starts at least this long after every replica is up, in ms: the replicas' processes are idle by then. */
const LEAD_MS = 500;
/** A replica due in the slot tries at least this long before the slot ends, in true ms, or the run fails as too busy. */
export const SLOT_END_GUARD_MS = 50;

export const triedLatch = (replica: string): string => `tried:${replica}`;
/** Set by a replica once its run of the schedule is over, its lock's release included. */
export const finishedLatch = (replica: string): string => `finished:${replica}`;

/** Once every replica is up, replica-1 fixes when the first slot starts (ms since the epoch); the others read it. */
export async function agreeOnFirstSlot(ctx: WorkerContext): Promise<number> {
  await ctx.barrier('replicas-up');
  const first = ctx.workerIds[0]!;
  const key = ctx.key(FIRST_SLOT_KEY);
  if (ctx.workerId === first) {
    // PATTERN's runs are the multiples of SLOT_MS since the epoch (croner checks it agrees: cronReplica.ts).
    const startMs = Math.ceil((Date.now() + LEAD_MS) / SLOT_MS) * SLOT_MS;
    await ctx.redis.set(key, startMs);
    ctx.signal('first-slot-set');
    return startMs;
  }
  await ctx.waitFor('first-slot-set', doneLatch(first));
  return Number(await ctx.redis.get(key));
}

/** Before replica i tries: the replicas that fired before it have tried, and those whose job ended by now are done. */
export async function waitForEarlierReplicas(ctx: WorkerContext, index: number): Promise<void> {
  const jobMs = intParam(ctx.params, 'jobMs');
  const dueMs = dueAtMs(ctx.params, index);
  for (let j = 0; j < index; j++) {
    const earlier = ctx.workerIds[j]!;
    await ctx.waitFor(triedLatch(earlier), doneLatch(earlier));
    if (dueAtMs(ctx.params, j) + jobMs <= dueMs) await ctx.waitFor(finishedLatch(earlier), doneLatch(earlier));
  }
}

/** A replica in its job, before the job ends: every later replica that fires while the job runs has tried. */
export async function waitForReplicasFiringDuringJob(ctx: WorkerContext, index: number): Promise<void> {
  const endMs = dueAtMs(ctx.params, index) + intParam(ctx.params, 'jobMs');
  for (let k = index + 1; k < ctx.workerIds.length; k++) {
    if (dueAtMs(ctx.params, k) >= endMs) break;
    const later = ctx.workerIds[k]!;
    await ctx.waitFor(triedLatch(later), doneLatch(later));
  }
}

/**
 * Throws when replica i, due while the slot lasts, reaches its try only as the slot ends:
 * a lock held until the slot's end would be gone (or all but gone) when the parameters say it
 * is held. `startMs`: the slot's start; `trueNowMs`: now on the true clock (replica-1's).
 */
export function checkInSlot(ctx: WorkerContext, index: number, startMs: number, trueNowMs: number): void {
  if (dueAtMs(ctx.params, index) >= SLOT_MS || trueNowMs < startMs + SLOT_MS - SLOT_END_GUARD_MS) return;
  throw new Error(
    `${ctx.workerId} reached its try ${Math.round(trueNowMs - startMs)} ms into a ${SLOT_MS} ms slot it was due ${dueAtMs(ctx.params, index)} ms into: the machine is too busy; run it again`,
  );
}
