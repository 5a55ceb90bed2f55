// How long a start in line will wait, from how long recent runs held their slot: each slot
// frees when its run has lasted the recent mean, then serves the line in order, one run of
// the mean each. "4th in line, about 6 s" is the time the 4th slot to free comes.

/** Runs whose slot time makes the mean. */
const RECENT_RUNS = 20;
/** The mean before any run has ended here, in ms: about what a seed scenario takes with its clean-up. */
export const FIRST_GUESS_MS = 5000;

/** The slot times of the last runs to end, in ms, and their mean. */
export class RecentDurations {
  private readonly durations: number[] = [];

  add(ms: number): void {
    this.durations.push(ms);
    if (this.durations.length > RECENT_RUNS) this.durations.shift();
  }

  /** The mean of the recent ones, in ms; FIRST_GUESS_MS before any. */
  get meanMs(): number {
    if (this.durations.length === 0) return FIRST_GUESS_MS;
    return this.durations.reduce((a, b) => a + b, 0) / this.durations.length;
  }
}

/**
 * Ms until the start at `index` in line (0: next) gets a slot, with `slots` slots, runs going
 * for `elapsedMs` each and runs lasting `meanMs`: the (index+1)-th time a slot frees.
 */
export function estimateWaitMs(index: number, elapsedMs: readonly number[], slots: number, meanMs: number): number {
  const frees = elapsedMs.map((e) => Math.max(0, meanMs - e));
  while (frees.length < slots) frees.push(0);
  let at = 0;
  for (let served = 0; served <= index; served++) {
    frees.sort((a, b) => a - b);
    at = frees.shift() ?? 0;
    frees.push(at + meanMs);
  }
  return Math.round(at);
}
