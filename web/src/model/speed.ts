// The speed of a run in words a person reads at a glance: how much slower or faster, and
// what one second on screen stands for in real time.

/** A factor as it is read: 4, 1.33, 1.5 (never 1.3333333333333333). */
function factorText(f: number): string {
  return String(Math.round(f * 100) / 100);
}

/** A duration in one unit: "250 ms" below a second, "1.5 s" from a second on. */
function realText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms) / 1000} s`;
}

/** "4× slower (1 s shown = 250 ms real)", "1× (real time)", "2× faster (1 s shown = 2 s real)". */
export function speedWords(speed: number): string {
  if (speed === 1) return '1× (real time)';
  const real = realText(1000 * speed);
  return speed < 1
    ? `${factorText(1 / speed)}× slower (1 s shown = ${real} real)`
    : `${factorText(speed)}× faster (1 s shown = ${real} real)`;
}
