// The one owner of time on the page. A run is one append-only event log; the cursor says
// which moment of it is shown. Live, held (paused or stepped) and replayed runs differ only
// in who moves the cursor: the newest event and the live clock, nobody, or the replay clock.
// Everything drawn is a function of (log, cursor): `shownLog` is what the selectors fold.
import { domainFor } from './layout.js';
import type { EventLog } from './memo.js';
import { runSummary } from './runSummary.js';

export type Cursor =
  /** Follows the newest event and the live clock: the whole log is shown. */
  | { mode: 'live' }
  /** Held at a moment (paused, stepped, or a click on the axis). */
  | { mode: 'held'; atMs: number }
  /** Moved by the replay clock at `rate` run ms per page ms. */
  | { mode: 'replay'; atMs: number; rate: number };

export const LIVE: Cursor = { mode: 'live' };

/** The moment a cursor holds; null when it follows the live edge. */
export function cursorAt(cursor: Cursor): number | null {
  return cursor.mode === 'live' ? null : cursor.atMs;
}

/** The last prefix cut from each log: the same count of due events gives the same array. */
const cuts = new WeakMap<EventLog, { count: number; events: EventLog }>();

/**
 * The events of `log` that happened by `atMs`, in log order: the log itself when all did,
 * else one array per count of due events (a stable reference while the cursor moves between
 * two events, and an extension of the last one, so the folds of `memo.ts` go on from it).
 */
export function eventsUpTo(log: EventLog, atMs: number): EventLog {
  if (runSummary(log).lastMs <= atMs) return log;
  let count = 0;
  for (const e of log) if (e.atMs <= atMs) count++;
  if (count === log.length) return log;
  const cut = cuts.get(log);
  if (cut?.count === count) return cut.events;
  const events = log.filter((e) => e.atMs <= atMs);
  cuts.set(log, { count, events });
  return events;
}

/** What a run shows at the cursor. */
export function shownLog(log: EventLog, cursor: Cursor): EventLog {
  return cursor.mode === 'live' ? log : eventsUpTo(log, cursor.atMs);
}

/** Where the run's end is: its last event's time when it never ended. */
export function logEndMs(log: EventLog): number {
  const summary = runSummary(log);
  return summary.endMs ?? summary.lastMs;
}

/** A log with the page's estimate of its live clock. */
export interface ClockedLog {
  events: EventLog;
  /** performance.now() at the run's time zero, estimated from arrivals; null: unknown. */
  clientOriginMs: number | null;
  /** The connection dropped: the run's clock is not followed. */
  lost: boolean;
}

/** The run's own "now" on this page's clock: the live edge, or the end once it is over. */
export function liveNow(run: ClockedLog, pageNowMs: number): { nowMs: number; moving: boolean } {
  const summary = runSummary(run.events);
  if (summary.endMs !== null) return { nowMs: summary.endMs, moving: false };
  if (run.lost || run.clientOriginMs === null) return { nowMs: summary.lastMs, moving: false };
  return { nowMs: Math.max(summary.lastMs, pageNowMs - run.clientOriginMs), moving: true };
}

/**
 * The time the drawing of a run reaches (where open intervals end, where the edge line
 * stands) and whether it moves by itself: the live clock, or the cursor.
 */
export function drawnNow(run: ClockedLog, cursor: Cursor, pageNowMs: number): { nowMs: number; moving: boolean } {
  if (cursor.mode === 'live') return liveNow(run, pageNowMs);
  if (cursor.mode === 'held') return { nowMs: cursor.atMs, moving: false };
  return { nowMs: cursor.atMs, moving: cursor.atMs < logEndMs(run.events) };
}

/**
 * Where the axis of a run ends. A replay grows it as the live run did (from the log up to
 * the cursor); a held cursor keeps the axis of the whole log, so that a step does not
 * rescale the drawing.
 */
export function domainEndMs(run: ClockedLog, cursor: Cursor, pageNowMs: number, trackPx: number): number {
  if (cursor.mode === 'replay') return domainFor(runSummary(eventsUpTo(run.events, cursor.atMs)), cursor.atMs, trackPx).endMs;
  return domainFor(runSummary(run.events), liveNow(run, pageNowMs).nowMs, trackPx).endMs;
}
