// The one mapping between run time (ms since the run started) and horizontal position.
// Positions are percentages of the lane width, so the timeline stays fluid.

export interface TimeScale {
  /** Run time at the left edge, in ms. */
  startMs: number;
  /** Run time at the right edge, in ms; always greater than startMs. */
  endMs: number;
  /** Width of the drawing, in the caller's unit (100 = percent). */
  width: number;
}

export function makeScale(startMs: number, endMs: number, width = 100): TimeScale {
  return { startMs, endMs: endMs > startMs ? endMs : startMs + 1, width };
}

/** Position of a run time; times outside the domain map outside [0, width]. */
export function timeToX(ms: number, scale: TimeScale): number {
  return ((ms - scale.startMs) / (scale.endMs - scale.startMs)) * scale.width;
}

/** The run time at a position: the exact inverse of timeToX. */
export function xToTime(x: number, scale: TimeScale): number {
  return scale.startMs + (x / scale.width) * (scale.endMs - scale.startMs);
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** The smallest 1, 2 or 5 × 10^k that is at least `ms` (ms > 0). */
export function niceCeil(ms: number): number {
  if (!(ms > 0)) return 1;
  const pow = 10 ** Math.floor(Math.log10(ms));
  for (const m of [1, 2, 5, 10]) if (m * pow >= ms - 1e-9) return m * pow;
  return 10 * pow;
}

/** Tick step so that about `target` ticks cover `spanMs`. */
export function tickStep(spanMs: number, target = 8): number {
  return niceCeil(spanMs / Math.max(1, target));
}

/** Tick times from the scale's start to its end, on a nice step. */
export function ticks(scale: TimeScale, target = 8): number[] {
  const step = tickStep(scale.endMs - scale.startMs, target);
  const out: number[] = [];
  const first = Math.ceil(scale.startMs / step) * step;
  for (let t = first; t <= scale.endMs + 1e-9; t += step) out.push(Math.round(t * 1000) / 1000);
  return out;
}

/** "131 ms", "1.25 s": how run times are written everywhere on the page. */
export function formatMs(ms: number): string {
  if (Math.abs(ms) < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2).replace(/\.?0+$/, '')} s`;
}
