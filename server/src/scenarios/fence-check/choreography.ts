// The fence-check choreography, per ordering. worker-1 takes the ordering's lease first;
// worker-2 takes it once Redis no longer holds it. When worker-1 wakes up from its stop,
// one atomic step in Redis decides the case: its lease still live (it writes, and
// worker-2 waits for it to finish) or passed on (the ordering says who writes first). So
// no verdict hangs on which process the scheduler ran first.
import type { WorkerContext } from '../types.js';
import { lockKey, writingInLeaseKey, type Ordering } from './orderings.js';

// Is this worker's lease still live? If so, say so where the next worker looks.
const CLAIM_IN_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2])
  return 1
end
return 0`;

/** Latches of one worker in one ordering. */
export const latch = {
  granted: (worker: string, o: Ordering) => `granted:${worker}:${o.id}`,
  /** Its write (or its own refusal of it) is over. */
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
  // Set by the server once the key it watches is gone: expired, or released.
  await ctx.waitFor(`key-gone:${lockKey(o.id)}`, ...over);
  // worker-1 woke up within its lease: what it writes now belongs to that lease.
  if ((await ctx.redis.get(ctx.key(writingInLeaseKey(o.id)))) === first) await ctx.waitFor(...over);
  ctx.emit({ type: 'wait-finished', reason });
}

/** worker-1, on waking up: still in its lease, or the ordering's turn for the newer holder. */
export async function afterWaking(ctx: WorkerContext, o: Ordering, token: string): Promise<void> {
  const inLease = await ctx.redis.eval(CLAIM_IN_LEASE, 2, ctx.key(lockKey(o.id)), ctx.key(writingInLeaseKey(o.id)), token, ctx.workerId);
  if (Number(inLease) === 1) return;
  const newer = ctx.workerIds[1]!;
  const gone = [latch.finished(newer, o), `done:${newer}`];
  if (o.firstWriter === 'newer') {
    const { rowCount } = await ctx.pg.query('select 1 from attempts where ordering = $1 and worker = $2', [o.id, newer]);
    if (rowCount) return; // it has written already: nothing to wait for
    await waitWith(ctx, `choreography: ${newer}, the newer holder, writes first`, latch.attempted(newer, o), ...gone);
  } else {
    await waitWith(ctx, `choreography: ${newer} takes the lease; this stale write goes first`, latch.atWrite(newer, o), ...gone);
  }
}

/** worker-2 at its write, in an ordering where the stale write goes first. */
export async function letStaleWriteFirst(ctx: WorkerContext, o: Ordering): Promise<void> {
  const first = ctx.workerIds[0]!;
  ctx.signal(latch.atWrite(ctx.workerId, o));
  await waitWith(ctx, `choreography: ${first}'s stale write goes first`, latch.attempted(first, o), latch.finished(first, o), `done:${first}`);
}
