// Acquire, waiting: for a job that must run, not skip. The worker tries SET NX PX and, while
// another holds the lease, tries again every `retryMs`; the lease is its own only once
// Redis says OK.
import type { WorkerContext } from '../types.js';

export interface WaitOptions {
  /** Time between two tries, in ms. */
  retryMs: number;
  /** Called once, when the first try finds the lease taken (the timeline's "waits"). */
  onWait?(): Promise<void> | void;
}

/**
 * Takes the lease `key` with `token` for `leaseMs`, waiting while another holds it; returns
 * when the SET that won was sent (`ctx.now()`), where the lease starts as Redis counts it.
 */
export async function acquireWaiting(
  ctx: Pick<WorkerContext, 'redis' | 'now' | 'sleep'>,
  key: string,
  token: string,
  leaseMs: number,
  { retryMs, onWait }: WaitOptions,
): Promise<number> {
  let sent = ctx.now();
  if ((await ctx.redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK') return sent;
  await onWait?.();
  for (;;) {
    await ctx.sleep(retryMs);
    sent = ctx.now();
    if ((await ctx.redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK') return sent;
  }
}
