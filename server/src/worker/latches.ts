// The latches the run itself sets, by name. A scenario's choreography waits on them
// (`ctx.waitFor`); the names are made here only, so the run that signals a latch and the
// worker that waits for it cannot disagree on its spelling.

/** Set when a worker's process has ended, however it ended (done, failed, killed). */
export function doneLatch(workerId: string): string {
  return `done:${workerId}`;
}

/** Set when the server observes a watched key (its name without the run's prefix) go from a value to no key. */
export function keyGoneLatch(key: string): string {
  return `key-gone:${key}`;
}

/** Set once the scenario's record of a watched key holding `value` is done (`onKeyObserved`). */
export function keySeenLatch(key: string, value: string): string {
  return `key-seen:${key}=${value}`;
}

/** Set once a lab node (e.g. "node-3") has been cut from every worker by an isolate, live or planned, for the `round`th time (from 1). */
export function isolatedLatch(node: string, round: number): string {
  return `isolated:${node}#${round}`;
}

/** Set once that cut has been undone: the node reaches every worker again (a rejoin, live or at a planned isolate's end). */
export function rejoinedLatch(node: string, round: number): string {
  return `rejoined:${node}#${round}`;
}

/** Set once a lab node has been slowed for every worker by a slow, live or planned, for the `round`th time (from 1). */
export function slowedLatch(node: string, round: number): string {
  return `slowed:${node}#${round}`;
}

/** Set once that slow has been undone: the node is at full speed again (a restore, live or at a planned slow's end). */
export function restoredLatch(node: string, round: number): string {
  return `restored:${node}#${round}`;
}
