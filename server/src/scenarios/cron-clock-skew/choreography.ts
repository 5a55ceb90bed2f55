// What makes every run with the same parameters tell the same story. Each node fires when
// its own clock reaches the slot; these waits only hold back what scheduling noise could
// reorder, so the run plays out as the parameters say it would on a quiet machine:
//  - once every node is up, node-1 fixes when slot 0 starts, and all nodes use that;
//  - nodes try the lock in the order they fire;
//  - a node that fires after an earlier node's job has ended (by the schedule) waits for
//    that node to be done, and a holder whose job is still running when a later node
//    fires waits for that node to try before its job ends;
//  - a lock that ends within GUARD_MS of when a node was due to try it is played as expired.
import { intParam, type WorkerContext } from '../types.js';
import { LEASE_END_KEY, LOCK_KEY, SLOT_START_KEY, slotKey } from './keys.js';
import { fireAtMs } from './schedule.js';
import { doneLatch } from '../../worker/latches.js';

/** A lock that ends less than this after a node was due to try it is played as expired, in ms. */
export const GUARD_MS = 100;
/**
 * What reading the lock's end may be off by, in ms, when its holder did not say when it asked
 * the lease to end: Redis's PTTL and the clock are each read to the millisecond, a round trip
 * apart, and the holder's SET reached Redis a little after it was sent.
 */
const READING_MS = 5;
const POLL_MS = 5;
/** Slot 0 starts this long after every node is up. */
const LEAD_MS = 100;

/** Once every node is up, node-1 fixes when slot 0 starts (on its clock, the true one); the others read it. */
export async function agreeOnSlotStart(ctx: WorkerContext): Promise<number> {
  await ctx.barrier('nodes-up');
  const first = ctx.workerIds[0]!;
  const key = ctx.key(SLOT_START_KEY);
  if (ctx.workerId === first) {
    const startMs = Date.now() + LEAD_MS;
    await ctx.redis.set(key, startMs);
    ctx.signal('slot-start-set');
    return startMs;
  }
  await ctx.waitFor('slot-start-set', doneLatch(first));
  return Number(await ctx.redis.get(key));
}

export const triedLatch = (node: string): string => `tried:${node}`;

/** Before node i tries the lock: the nodes that fired before it have tried, and those whose job ended by now are done. */
export async function waitForEarlierNodes(ctx: WorkerContext, index: number): Promise<void> {
  const jobMs = intParam(ctx.params, 'jobMs');
  const fireMs = fireAtMs(ctx.params, index);
  for (let j = 0; j < index; j++) {
    const earlier = ctx.workerIds[j]!;
    await ctx.waitFor(triedLatch(earlier), doneLatch(earlier));
    if (fireAtMs(ctx.params, j) + jobMs <= fireMs) await ctx.waitFor(doneLatch(earlier));
  }
}

/** A holder, before its job ends: every later node that fires while the job runs has tried. */
export async function waitForNodesFiringDuringJob(ctx: WorkerContext, index: number): Promise<void> {
  const endMs = fireAtMs(ctx.params, index) + intParam(ctx.params, 'jobMs');
  for (let k = index + 1; k < ctx.workerIds.length; k++) {
    if (fireAtMs(ctx.params, k) >= endMs) break;
    const later = ctx.workerIds[k]!;
    await ctx.waitFor(triedLatch(later), doneLatch(later));
  }
}

/**
 * If the lock ends within GUARD_MS of when this node was due to try it (`dueMs`, true time:
 * the slot's start plus the node's lateness), waits until Redis has let it go. Measured from
 * when the node was due, not from now: how late the machine let it wake must not decide the
 * story, and the parameters alone say which story it is (expected.ts). The lock's end is the
 * one its holder asked for (LEASE_END_KEY, cronJob.ts), exact to the millisecond: a reading of
 * the key's life comes out a few ms long (the SET reached Redis after the lease was sized), so a
 * lock asked to end 99 ms after the node is due would read as 100 and be held. A holder that
 * did not say is read from the key, with READING_MS of slack.
 */
export async function settleExpiringLock(ctx: WorkerContext, slot: number, dueMs: number, trueNowMs: () => number): Promise<void> {
  const key = ctx.key(slotKey(LOCK_KEY, slot));
  const pttl = await ctx.redis.pttl(key);
  if (pttl <= 0) return;
  const askedEndMs = Number((await ctx.redis.get(ctx.key(slotKey(LEASE_END_KEY, slot)))) ?? Number.NaN);
  const leftMs = Number.isFinite(askedEndMs) ? askedEndMs - dueMs : trueNowMs() + pttl - dueMs + READING_MS;
  if (leftMs >= GUARD_MS) return;
  const reason = `choreography: the lock ends ${Math.round(leftMs)} ms after this node was due (less than ${GUARD_MS} ms), let it`;
  ctx.emit({ type: 'wait-started', reason });
  while ((await ctx.redis.exists(key)) === 1) await ctx.sleep(POLL_MS);
  ctx.emit({ type: 'wait-finished', reason });
}
