// The failover scenario's choreography: worker-1 decides about its lock on the first
// primary; only then does the outage start (the server kills the primary); worker-2
// arrives once Sentinel has promoted a replica; and worker-1, the older holder, writes
// after worker-2, as a holder that was slow or paused would. Each step waits for the one
// before it, so no verdict depends on which process the scheduler ran first.
import type { WorkerContext } from '../types.js';
import { OUTAGE_OVER_KEY, OUTAGE_START_KEY } from './keys.js';
import type { OutageRecord } from './outage.js';
import { doneLatch } from '../../worker/latches.js';

const isFirst = (ctx: WorkerContext): boolean => ctx.workerId === ctx.workerIds[0];

/** worker-1 has taken or refused its lock: the server may kill the primary now. */
export async function startOutage(ctx: WorkerContext): Promise<void> {
  if (isFirst(ctx)) await ctx.redis.lpush(ctx.key(OUTAGE_START_KEY), ctx.workerId);
}

/** worker-2 arrives once the failover is over, and reports what the server saw. */
export async function waitForFailover(ctx: WorkerContext): Promise<void> {
  if (isFirst(ctx)) return;
  const reason = 'the primary dies; Sentinel promotes a replica';
  ctx.emit({ type: 'wait-started', reason });
  const reply = await ctx.redis.blpop(ctx.key(OUTAGE_OVER_KEY), 0); // pushed by the server's outage
  const record = JSON.parse(reply?.[1] ?? '{}') as OutageRecord & { error?: string };
  if (record.error) throw new Error(record.error);
  ctx.emit({ type: 'wait-finished', reason });
  ctx.emit({
    type: 'note',
    text: `${record.killed.join(' and ')} killed (SIGKILL); ${record.failoverMs} ms later Sentinel names the ${record.promoted} as primary. When the primary died, the ${record.promoted} ${record.replicaHadKey ? 'had' : 'did not have'} the lock key.`,
  });
}

/** Before worker-1 writes, the newer holders write first (or finish without writing). */
export async function letNewerHoldersWriteFirst(ctx: WorkerContext): Promise<void> {
  if (!isFirst(ctx)) return;
  for (const other of ctx.workerIds.slice(1)) {
    const reason = `choreography: ${other}, who comes after the failover, takes its turn first`;
    ctx.emit({ type: 'wait-started', reason });
    await ctx.waitFor(`wrote:${other}`, doneLatch(other));
    ctx.emit({ type: 'wait-finished', reason });
  }
}
