// Horizontal placement of shapes, in percent of the track. An open interval (endMs null)
// is drawn up to the live edge through the --live-x custom property, which the live-edge
// loop updates every frame without a React render.
import type { CSSProperties } from 'react';
import { clamp, timeToX, type TimeScale } from '../../model/timeScale.js';

const pct = (x: number) => `${clamp(x, 0, 100).toFixed(3)}%`;

/** `capMs`: an open interval stops there even when the live edge is past it (a known expiry). */
export function intervalStyle(startMs: number, endMs: number | null, scale: TimeScale, capMs?: number | null): CSSProperties {
  const x0 = clamp(timeToX(startMs, scale), 0, 100);
  if (endMs === null) {
    const live = `var(--live-x, ${pct(x0)})`;
    const edge = capMs == null ? live : `min(${live}, ${pct(timeToX(capMs, scale))})`;
    return { left: pct(x0), width: `max(0%, calc(${edge} - ${pct(x0)}))` };
  }
  const x1 = clamp(timeToX(endMs, scale), 0, 100);
  return { left: pct(x0), width: pct(Math.max(0, x1 - x0)) };
}

export function pointStyle(atMs: number, scale: TimeScale): CSSProperties {
  return { left: pct(timeToX(atMs, scale)) };
}
