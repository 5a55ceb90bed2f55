// One clock for every process of a run: process.hrtime is CLOCK_MONOTONIC on the host,
// so a worker and the server read the same time line; runs count from their own start.

/** Now on the host-wide monotonic clock, in nanoseconds. */
export function monotonicNs(): bigint {
  return process.hrtime.bigint();
}

/** Ms elapsed since `startNs` on the host-wide monotonic clock, to the microsecond. */
export function msSince(startNs: bigint): number {
  return Math.round(Number(monotonicNs() - startNs) / 1e3) / 1e3;
}

/**
 * Resolves once at least `ms` have passed on the host-wide monotonic clock. A Node timer may
 * fire up to a millisecond early by that clock (it counts from the event loop's time, in
 * whole ms), so this checks, and waits again for what is left: a worker's 300 ms of work
 * lasts 300 ms on the timeline, never 299.4.
 */
export function sleepAtLeast(ms: number): Promise<void> {
  return new Promise((resolve) => void afterAtLeast(ms, resolve));
}

/** Calls `then` once at least `ms` have passed on the host-wide monotonic clock (as sleepAtLeast); the function returned cancels it. */
export function afterAtLeast(ms: number, then: () => void): () => void {
  const until = monotonicNs() + BigInt(Math.max(0, Math.ceil(ms * 1e6)));
  let timer: NodeJS.Timeout;
  const check = (): void => {
    const leftNs = until - monotonicNs();
    if (leftNs > 0n) timer = setTimeout(check, Math.ceil(Number(leftNs) / 1e6));
    else then();
  };
  timer = setTimeout(check, ms);
  return () => clearTimeout(timer);
}
