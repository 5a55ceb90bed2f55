// A worker's event loop blocked for real: a synchronous spin, as a huge JSON.parse or a
// CPU-bound loop would be. No signal, no SIGSTOP: the process runs flat out, and no callback,
// timer or reply of it (a lock's renewal included) runs until the spin ends.
import { performance } from 'node:perf_hooks';
import type { WorkerContext } from '../types.js';

/** Spins for `ms` without yielding, reporting the block and how long it lasted on the run's clock; 0 does nothing. */
export function blockEventLoop(ctx: WorkerContext, ms: number): void {
  if (ms === 0) return;
  const task = 'synchronous task';
  const fromMs = ctx.now();
  ctx.emit({ type: 'event-loop-blocked', task });
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning: no callback, timer or reply of this process runs until the loop ends.
  }
  // On the run's clock, rounded as the stamps are.
  ctx.emit({ type: 'event-loop-unblocked', task, blockedMs: Math.round((ctx.now() - fromMs) * 1e3) / 1e3 });
}
