// How a silent node looks to a client of this lab's network. A node is in a worker's reach
// and answers, or out of it and never answers (reach.ts): that is the whole network. A
// real timer cannot tell a silent node from one in reach that answers late because the
// machine is busy (a round trip to Redis can take well over 100 ms under load), and would
// turn a node in reach into a missing vote by luck. So the timeout fires for a node out of
// reach only, after the full time of real silence, and a node in reach always gets to answer.
import { sleepAtLeast } from '../../time/clock.js';

/** Resolves null once `ms` have passed on the monotonic clock (never a millisecond early). */
export function silentFor(ms: number): Promise<null> {
  return sleepAtLeast(ms).then(() => null);
}

/** Never resolves: a node in reach always answers (or its connection fails, which the request reports). */
export function neverSilent(): Promise<null> {
  return new Promise<null>(() => undefined);
}
