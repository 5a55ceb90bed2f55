// The redlock scenario's choreography. worker-1 asks for the lock first; worker-2 asks
// once worker-1's lock is gone from the deciding node (see reach.ts), the first moment
// it can win a majority. At worker-1's write, one atomic step on that node decides
// which case the run is in: still holding the lock there (worker-2 waits for worker-1 to
// finish) or not (worker-2 has or will have the lock, and writes first). So no verdict
// hangs on which process the scheduler ran first.
import type { Redis } from 'ioredis';
import type { WorkerContext } from '../types.js';
import { CLAIM_WRITE_IN_LEASE, LEASE_STATE } from '../leaseHandover.js';
import { WRITES_TABLE } from '../kit/fencedLedger.js';
import { WRITING_IN_LEASE_KEY } from './keys.js';
import { doneLatch } from '../../worker/latches.js';

/** Checks the deciding node this often while waiting, in ms. */
const POLL_MS = 5;

/** worker-2's arrival: after worker-1's grant, once its lock has left the deciding node. */
export async function waitForFreeLock(ctx: WorkerContext, deciding: Redis, nodeName: string, lockKey: string): Promise<void> {
  const first = ctx.workerIds[0]!;
  await ctx.waitFor(`granted:${first}`, doneLatch(first));
  const reason = `${first}'s lock is still on ${nodeName}`;
  ctx.emit({ type: 'wait-started', reason });
  let state: string;
  while ((state = String(await deciding.eval(LEASE_STATE, 2, lockKey, WRITING_IN_LEASE_KEY))) === 'held') {
    await ctx.sleep(POLL_MS);
  }
  // worker-1 wrote while its lock was still there: that write belongs to its lock.
  if (state === first) await ctx.waitFor(doneLatch(first));
  ctx.emit({ type: 'wait-finished', reason });
}

/**
 * Before a write: if this worker's lock has left the deciding node, the workers after it
 * have taken (or are taking) the lock, and they write first. The stale write then lands
 * after the newer holder's, as it does when a paused process wakes up late.
 */
export async function keepWriteOrder(ctx: WorkerContext, deciding: Redis, lockKey: string, token: string): Promise<void> {
  const inLease = await deciding.eval(CLAIM_WRITE_IN_LEASE, 2, lockKey, WRITING_IN_LEASE_KEY, token, ctx.workerId);
  if (Number(inLease) === 1) return;
  const later = ctx.workerIds.slice(ctx.workerIds.indexOf(ctx.workerId) + 1);
  for (const other of later) {
    // Always through the latch: everything the newer holder logged before its write's
    // signal is then in the run's log before this write. The wait shows only when there is one.
    const { rowCount } = await ctx.pg.query(`select 1 from ${WRITES_TABLE} where worker = $1`, [other]);
    if (rowCount) {
      await ctx.waitFor(`wrote:${other}`, doneLatch(other));
      continue;
    }
    const reason = `choreography: ${other}, the newer holder, writes first`;
    ctx.emit({ type: 'wait-started', reason });
    await ctx.waitFor(`wrote:${other}`, doneLatch(other));
    ctx.emit({ type: 'wait-finished', reason });
  }
}
