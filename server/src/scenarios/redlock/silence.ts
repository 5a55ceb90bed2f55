// How a silent node looks to a client of this lab's network. A node is in a worker's reach
// and answers, or out of it and never answers (reach.ts), or in reach until it is isolated
// ("isolate node-3") and silent from then on, or slowed ("slow node-3") and late from then
// on: that is the whole network. A real timer cannot tell a silent node from one in reach
// that answers late because the machine is busy (a round trip to Redis can take well over
// 100 ms under load), and would turn a node in reach into a missing vote by luck. So the
// timeout fires for a node out of reach, or once it is isolated or slowed, only after the
// full time of real silence, and a node in reach otherwise always gets to answer. A slowed
// node answers no sooner than twice its latency, so past half the timeout its vote is
// missed for certain, as the lab means it to be.
import { sleepAtLeast } from '../../time/clock.js';

/** Resolves null once `ms` have passed on the monotonic clock (never a millisecond early). */
export function silentFor(ms: number): Promise<null> {
  return sleepAtLeast(ms).then(() => null);
}
