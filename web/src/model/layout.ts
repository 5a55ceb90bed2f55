// Pure layout decisions for the timeline: the time domain, and rows for marks that would
// otherwise sit on top of one another.
import type { Mark } from './lanes.js';
import type { RunSummary } from './runSummary.js';
import { makeScale, niceCeil, timeToX, type TimeScale } from './timeScale.js';

/** Smallest domain of a running run: the first horizon. */
export const MIN_DOMAIN_MS = 200;
/** Smallest domain of a finished run: short runs are drawn full width too. */
export const MIN_FINISHED_MS = 10;

/** Room after a finished run's end, in px of track: what the final state needs for its label. */
export const END_ROOM_PX = 220;
/** The room after the end, as a fraction of the run's length: at least, and at most. */
export const END_ROOM_MIN = 0.08;
export const END_ROOM_MAX = 0.25;

/**
 * Where the axis of a finished run ends: past the run's end by room enough that the state
 * the stores held at the end (often written a few ms before it) reads as a bar with its
 * label, on a track `trackPx` wide.
 */
export function finishedEndMs(endMs: number, trackPx: number): number {
  const px = Math.max(1, trackPx);
  const want = px > END_ROOM_PX ? END_ROOM_PX / (px - END_ROOM_PX) : Infinity;
  const room = Math.min(END_ROOM_MAX, Math.max(END_ROOM_MIN, want));
  return Math.max(MIN_FINISHED_MS, endMs * (1 + room));
}

/** Where the live edge may reach before the domain grows: this share of the horizon. */
const HORIZON_FILL = 0.92;

/**
 * The horizon of a run in progress whose live edge is at `nowMs`: the smallest round number
 * (1, 2 or 5 × 10^k, at least MIN_DOMAIN_MS) that keeps the edge within HORIZON_FILL of the
 * width. A pure function of the time: it grows in steps, so marks do not shift on every
 * event, and nothing has to remember the last horizon.
 */
export function horizonFor(nowMs: number): number {
  let h = MIN_DOMAIN_MS;
  while (h * HORIZON_FILL < nowMs) h = niceCeil(h * 1.5);
  return h;
}

/** The horizon a running run's domain grows to after `horizonMs`: the next round step. */
export function nextHorizon(horizonMs: number): number {
  return horizonFor(horizonMs + 1);
}

/**
 * The time domain of a run's drawing. A finished run fits its length and room for its
 * final state; a running one reaches the horizon of its "now" (`nowMs`: the live edge, or
 * the cursor of a replay).
 */
export function domainFor(summary: RunSummary, nowMs: number, trackPx = 1200): TimeScale {
  if (summary.endMs !== null) return makeScale(0, finishedEndMs(summary.endMs, trackPx));
  return makeScale(0, horizonFor(Math.max(nowMs, summary.lastMs)));
}

export interface PlacedMark {
  mark: Mark;
  /** Position in percent of the lane width. */
  x: number;
  /** 0 = the lane's main row; 1, 2… = rows that avoid a collision. */
  row: number;
  /** The caption is drawn to the left of the glyph (near the right edge). */
  flip: boolean;
}

/** Horizontal room a mark takes, in percent of the track: glyph and caption. */
export type MarkExtent = (mark: Mark) => { glyph: number; caption: number };

/**
 * Places marks left to right; a mark that would touch the last mark of a row (glyph and
 * caption) goes to the next row. Past the last row it takes the row that frees up first,
 * accepting an overlap at worst.
 */
export function stackMarks(marks: readonly Mark[], scale: TimeScale, extent: MarkExtent, rows = 2): PlacedMark[] {
  const rowEnd: number[] = Array.from({ length: rows }, () => Number.NEGATIVE_INFINITY);
  return [...marks]
    .sort((a, b) => a.atMs - b.atMs)
    .map((mark) => {
      const x = timeToX(mark.atMs, scale);
      const { glyph, caption } = extent(mark);
      // A caption that would run past the right edge is drawn to the left of its glyph, when
      // that side has more room (in the right half: a caption too long for either side
      // overflows the side where it overflows less).
      const flip = caption > 0 && x + glyph / 2 + caption > 100 && x > 50;
      const from = x - glyph / 2 - (flip ? caption : 0);
      const to = x + glyph / 2 + (flip ? 0 : caption);
      let row = rowEnd.findIndex((end) => from >= end);
      if (row < 0) row = rowEnd.indexOf(Math.min(...rowEnd));
      rowEnd[row] = to;
      return { mark, x, row, flip };
    });
}

/** Width of a caption's character, in px: at 0.78rem on the page, at 18 px on stage. */
export const CAPTION_CHAR_PX = 7.5;
export const STAGE_CAPTION_CHAR_PX = 10.5;

/** Extent of marks on a track `trackPx` wide, their captions `charPx` a character. */
export function markExtent(trackPx: number, charPx = CAPTION_CHAR_PX): MarkExtent {
  const pct = (px: number) => (px / Math.max(1, trackPx)) * 100;
  return (mark) =>
    mark.major ? { glyph: pct(30), caption: mark.caption ? pct(12 + mark.caption.length * charPx) : 0 } : { glyph: pct(16), caption: 0 };
}
