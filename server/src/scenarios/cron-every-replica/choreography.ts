// What makes every run with the same parameters tell the same story. Each replica's croner
// fires when its own clock reaches the slot; these waits only hold back what scheduling
// noise could reorder, so the run plays out as the parameters say it would on a quiet machine:
//  - once every replica is up, replica-1 fixes the first slot (a whole second at least
//    LEAD_MS away, on its clock, the true one), and every replica schedules that one;
//  - replicas try in the order they fire; one that fires after an earlier replica's job
//    has ended (by the schedule) waits for that replica to be done, and a replica whose job
//    is still running when a later one fires waits for that one to try before its job ends;
//  - a replica that reaches its try more than MAX_LATE_MS after it was due fails the run
//    (the machine is too busy for a one-second slot) rather than tell another story.
import { intParam, type WorkerContext } from '../types.js';
import { doneLatch } from '../../worker/latches.js';
import { FIRST_SLOT_KEY } from './keys.js';
import { dueAtMs, SLOT_MS } from './schedule.js';

/** The first slot starts at least this long after every replica is up, in ms. */
const LEAD_MS = 300;
/** Latest a replica may reach its try after it was due, in real ms (expected.ts keeps every edge further away). */
export const MAX_LATE_MS = 250;

export const triedLatch = (replica: string): string => `tried:${replica}`;
/** Set by a replica once its run of the schedule is over, its lock's release included. */
export const finishedLatch = (replica: string): string => `finished:${replica}`;

/** Once every replica is up, replica-1 fixes when the first slot starts (ms since the epoch); the others read it. */
export async function agreeOnFirstSlot(ctx: WorkerContext): Promise<number> {
  await ctx.barrier('replicas-up');
  const first = ctx.workerIds[0]!;
  const key = ctx.key(FIRST_SLOT_KEY);
  if (ctx.workerId === first) {
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

/** Throws when this replica reaches its try too late for the story its parameters tell (`lateMs`: real ms after it was due). */
export function checkOnTime(ctx: WorkerContext, lateMs: number): void {
  if (lateMs <= MAX_LATE_MS) return;
  throw new Error(
    `${ctx.workerId} reached its try ${Math.round(lateMs)} ms after it was due (more than ${MAX_LATE_MS} ms): the machine is too busy for a one-second slot; run it again`,
  );
}
