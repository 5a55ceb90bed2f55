// Which requests a server process serves, and in which wave they arrive. Requests are
// numbered 1…R; server k (0-based here) gets k+1, k+1+S, …, so every server has about
// R/S of them; the waves split the numbers in order, about R/W requests a wave.

/** Request numbers of one server, one list per wave (a list may be empty). */
export function requestPlan(requests: number, servers: number, waves: number, serverIndex: number): number[][] {
  const plan: number[][] = Array.from({ length: waves }, () => []);
  for (let n = serverIndex + 1; n <= requests; n += servers) {
    plan[Math.floor(((n - 1) * waves) / requests)]!.push(n);
  }
  return plan;
}

/** Time from the first wave to the last, in ms: how long requests keep arriving. */
export function arrivalSpanMs(waves: number, waveGapMs: number): number {
  return (waves - 1) * waveGapMs;
}
