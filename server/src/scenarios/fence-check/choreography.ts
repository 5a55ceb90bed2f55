// The fence-check choreography, per ordering. worker-1 takes the ordering's lease first
// and says when it has reached the step where the ordering stops it; worker-2 goes for
// the lease only after that, and once Redis no longer holds worker-1's lease. So
// everything worker-1 does before its stop comes before anything worker-2 does, however
// late a busy machine runs worker-1: its lease may run out before it gets to its stop,
// and the ordering is still the one it names. When worker-1 wakes up from its stop, one
// atomic step in Redis decides the case: its lease still live (it writes, and worker-2
// waits for it to finish) or passed on (the ordering says who writes first). So no
// verdict hangs on which process the scheduler ran first.
import type { WorkerContext } from '../types.js';
import { CLAIM_WRITE_IN_LEASE, LEASE_STATE } from '../leaseHandover.js';
import { lockKey, writingInLeaseKey, type Ordering } from './orderings.js';

/** Checks Redis this often while waiting for the lease to go, in ms. */
const POLL_MS = 5;

/** Latches of one worker in one ordering. */
export const latch = {
  granted: (worker: string, o: Ordering) => `granted:${worker}:${o.id}`,
  /** worker-1 is at the step where the ordering stops it: all it does before the stop is done. */
  atStop: (worker: string, o: Ordering) => `at-stop:${worker}:${o.id}`,
  /** Its write (or its own refusal of it) is over, and logged. */
  attempted: (worker: string, o: Ordering) => `attempted:${worker}:${o.id}`,
  /** The newer holder is at its write, having done everything before it. */
  atWrite: (worker: string, o: Ordering) => `at-write:${worker}:${o.id}`,
  finished: (worker: string, o: Ordering) => `finished:${worker}:${o.id}`,
};

async function waitWith(ctx: WorkerContext, reason: string, ...names: string[]): Promise<void> {
  ctx.emit({ type: 'wait-started', reason });
  await ctx.waitFor(...names);
  ctx.emit({ type: 'wait-finished', reason });
}

/** worker-2's arrival in an ordering: it waits while worker-1 holds the lease, then goes for it. */
export async function waitForFreeLease(ctx: WorkerContext, o: Ordering): Promise<void> {
  const first = ctx.workerIds[0]!;
  const over = [latch.finished(first, o), `done:${first}`];
  await ctx.waitFor(latch.granted(first, o), ...over);
  const reason = `${o.id}: the lease is held by ${first}`;
  ctx.emit({ type: 'wait-started', reason });
  // Not before worker-1 is at its stop: what it does before the stop belongs to its lease,
  // even when a busy machine made it late enough for the lease to expire on the way.
  await ctx.waitFor(latch.atStop(first, o), ...over);
  // Then until Redis no longer holds the lease: expired, or released. Asked of Redis
  // itself, not of the server's sampled view, which can miss a short lease altogether.
  let state: string;
  while ((state = String(await ctx.redis.eval(LEASE_STATE, 2, ctx.key(lockKey(o.id)), ctx.key(writingInLeaseKey(o.id))))) === 'held') {
    await ctx.sleep(POLL_MS);
  }
  // worker-1 woke up within its lease: what it writes now belongs to that lease.
  if (state === first) await ctx.waitFor(...over);
  ctx.emit({ type: 'wait-finished', reason });
}

/** worker-1, just before the stop its ordering names. */
export function reachedStop(ctx: WorkerContext, o: Ordering): void {
  ctx.signal(latch.atStop(ctx.workerId, o));
}

/** worker-1, on waking up: still in its lease, or the ordering's turn for the newer holder. */
export async function afterWaking(ctx: WorkerContext, o: Ordering, token: string): Promise<void> {
  const inLease = await ctx.redis.eval(
    CLAIM_WRITE_IN_LEASE,
    2,
    ctx.key(lockKey(o.id)),
    ctx.key(writingInLeaseKey(o.id)),
    token,
    ctx.workerId,
  );
  if (Number(inLease) === 1) return;
  const newer = ctx.workerIds[1]!;
  const gone = [latch.finished(newer, o), `done:${newer}`];
  if (o.firstWriter === 'newer') {
    // Always through the latch, set once the newer write is logged: the stale write then
    // comes after it in the run's log too. The wait shows only when there is one.
    const { rowCount } = await ctx.pg.query('select 1 from attempts where ordering = $1 and worker = $2', [o.id, newer]);
    if (rowCount) await ctx.waitFor(latch.attempted(newer, o), ...gone);
    else await waitWith(ctx, `choreography: ${newer}, the newer holder, writes first`, latch.attempted(newer, o), ...gone);
  } else {
    await waitWith(ctx, `choreography: ${newer} takes the lease; this stale write goes first`, latch.atWrite(newer, o), ...gone);
  }
}

/** worker-2 at its write, in an ordering where the stale write goes first. */
export async function letStaleWriteFirst(ctx: WorkerContext, o: Ordering): Promise<void> {
  const first = ctx.workerIds[0]!;
  ctx.signal(latch.atWrite(ctx.workerId, o));
  await waitWith(
    ctx,
    `choreography: ${first}'s stale write goes first`,
    latch.attempted(first, o),
    latch.finished(first, o),
    `done:${first}`,
  );
}
