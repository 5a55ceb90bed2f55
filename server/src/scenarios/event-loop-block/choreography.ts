// The choreography (as in the fencing scenario): worker-1 takes the lease first; worker-2
// takes it once Redis no longer holds it; and when worker-1's lease has passed to worker-2
// before worker-1 writes, worker-2 writes first. Which case a run is in is decided once,
// atomically in Redis, so no verdict hangs on which process the scheduler ran first.
import type { WorkerContext } from '../types.js';
import { LOCK_KEY, WRITING_IN_LEASE_KEY } from './keys.js';

// At write time: is this worker's lease still live? If so, say so where the next worker
// looks before it takes the lease; both in one step inside Redis.
const CLAIM_WRITE_IN_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2])
  return 1
end
return 0`;

/** worker-2's arrival: it waits while worker-1 holds the lease, then goes for it. */
export async function waitForFreeLease(ctx: WorkerContext): Promise<void> {
  const first = ctx.workerIds[0]!;
  await ctx.waitFor(`granted:${first}`, `done:${first}`);
  const reason = `the lease is held by ${first}`;
  ctx.emit({ type: 'wait-started', reason });
  // Set by the server once the key it watches is gone: expired, or released.
  await ctx.waitFor(`key-gone:${LOCK_KEY}`, `done:${first}`);
  // worker-1 found its lease live just before its write: that write belongs to its lease.
  if ((await ctx.redis.get(ctx.key(WRITING_IN_LEASE_KEY))) === first) await ctx.waitFor(`done:${first}`);
  ctx.emit({ type: 'wait-finished', reason });
}

/** Before a write: if this worker's lease has passed on, the newer holders write first. */
export async function keepWriteOrder(ctx: WorkerContext, token: string): Promise<void> {
  const inLease = await ctx.redis.eval(CLAIM_WRITE_IN_LEASE, 2, ctx.key(LOCK_KEY), ctx.key(WRITING_IN_LEASE_KEY), token, ctx.workerId);
  if (Number(inLease) === 1) return;
  for (const other of ctx.workerIds.slice(ctx.workerIds.indexOf(ctx.workerId) + 1)) {
    const { rowCount } = await ctx.pg.query('select 1 from write_attempts where worker = $1', [other]);
    if (rowCount) continue; // it has written already
    const reason = `choreography: ${other}, the newer holder, writes first`;
    ctx.emit({ type: 'wait-started', reason });
    await ctx.waitFor(`wrote:${other}`, `done:${other}`);
    ctx.emit({ type: 'wait-finished', reason });
  }
}
