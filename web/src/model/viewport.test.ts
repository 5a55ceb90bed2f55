import { describe, expect, it } from 'vitest';
import {
  clampWindow,
  committedFor,
  follow,
  MIN_SPAN_MS,
  mustRedrawNow,
  needsCommit,
  panBy,
  placement,
  sameWindow,
  wheelFactor,
  zoomAt,
} from './viewport.js';

const bounds = { startMs: 0, endMs: 1000 };

describe('viewport', () => {
  it('zooms around an anchor that stays put on screen', () => {
    const w = zoomAt(bounds, 4, 500, bounds);
    expect(w).toEqual({ startMs: 375, endMs: 625 });
    const v = zoomAt({ startMs: 200, endMs: 400 }, 2, 250, bounds);
    // 250 was a quarter into the window; it still is.
    expect((250 - v.startMs) / (v.endMs - v.startMs)).toBeCloseTo(0.25);
    expect(v.endMs - v.startMs).toBe(100);
  });

  it('never zooms out past the bounds nor in past the smallest span', () => {
    expect(zoomAt({ startMs: 100, endMs: 200 }, 0.01, 150, bounds)).toEqual(bounds);
    const tiny = zoomAt(bounds, 1e9, 10, bounds);
    expect(tiny.endMs - tiny.startMs).toBe(MIN_SPAN_MS);
  });

  it('pans within the bounds', () => {
    expect(panBy({ startMs: 100, endMs: 300 }, 50, bounds)).toEqual({ startMs: 150, endMs: 350 });
    expect(panBy({ startMs: 100, endMs: 300 }, -500, bounds)).toEqual({ startMs: 0, endMs: 200 });
    expect(panBy({ startMs: 700, endMs: 900 }, 500, bounds)).toEqual({ startMs: 800, endMs: 1000 });
    expect(clampWindow({ startMs: -50, endMs: 2000 }, bounds)).toEqual(bounds);
  });

  it('follows the live edge, keeping a margin after it', () => {
    const w = { startMs: 0, endMs: 100 };
    expect(follow(w, 50)).toBe(w);
    expect(follow(w, 95)).toEqual({ startMs: 5, endMs: 105 });
  });

  it('commits a wider window and knows when the view has left it', () => {
    const view = { startMs: 400, endMs: 500 };
    const c = committedFor(view, bounds);
    expect(c).toEqual({ startMs: 350, endMs: 550 });
    expect(needsCommit(view, c)).toBe(false);
    expect(needsCommit({ startMs: 420, endMs: 520 }, c)).toBe(false);
    expect(needsCommit({ startMs: 460, endMs: 560 }, c)).toBe(true); // past the right edge
    expect(needsCommit({ startMs: 440, endMs: 450 }, c)).toBe(true); // zoomed in 10×
    expect(committedFor(bounds, bounds)).toEqual(bounds);
    expect(needsCommit(bounds, bounds)).toBe(false);
  });

  it('redraws mid-gesture only for a blank edge or a big stretch', () => {
    const c = { startMs: 350, endMs: 550 };
    expect(mustRedrawNow({ startMs: 440, endMs: 450 }, c)).toBe(false); // 10× in: scaled for now
    expect(mustRedrawNow({ startMs: 445, endMs: 446 }, c)).toBe(true); // 100× in
    expect(mustRedrawNow({ startMs: 300, endMs: 500 }, c)).toBe(true); // a blank edge
  });

  it('places the committed content in percent of the track', () => {
    expect(placement({ startMs: 400, endMs: 500 }, { startMs: 350, endMs: 550 })).toEqual({ leftPct: -50, widthPct: 200 });
    expect(placement(bounds, bounds)).toEqual({ leftPct: 0, widthPct: 100 });
  });

  it('turns wheel deltas into symmetric zoom factors', () => {
    expect(wheelFactor(-100) * wheelFactor(100)).toBeCloseTo(1);
    expect(wheelFactor(-100)).toBeGreaterThan(1);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48));
  });

  it('compares windows loosely', () => {
    expect(sameWindow({ startMs: 0, endMs: 1 }, { startMs: 0.0000001, endMs: 1 })).toBe(true);
    expect(sameWindow(null, null)).toBe(true);
    expect(sameWindow(null, bounds)).toBe(false);
  });
});
