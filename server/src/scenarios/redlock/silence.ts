// How a silent node looks to a client of this lab's network. A node is in a worker's reach
// and answers, or out of it and never answers (reach.ts): that is the whole network. A
// real timer cannot tell a silent node from one in reach that answers late because the
// machine is busy (a round trip to Redis can take well over 100 ms under load), and would
// turn a node in reach into a missing vote by luck. So the timeout fires for a node out of
// reach only, after the full time of real silence, and a node in reach always gets to answer.

/** Resolves null once `ms` have passed by performance.now() (a timer may fire up to a millisecond early by that clock). */
export function silentFor(ms: number): Promise<null> {
  const until = performance.now() + ms;
  return new Promise((resolve) => {
    const check = (): void => {
      const left = until - performance.now();
      if (left > 0) setTimeout(check, Math.ceil(left));
      else resolve(null);
    };
    setTimeout(check, ms);
  });
}

/** Never resolves: a node in reach always answers (or its connection fails, which the request reports). */
export function neverSilent(): Promise<null> {
  return new Promise<null>(() => undefined);
}
