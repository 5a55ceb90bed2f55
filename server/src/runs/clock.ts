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
