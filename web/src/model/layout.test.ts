import { describe, expect, it } from 'vitest';
import type { Mark } from './lanes.js';
import { CAPTION_CHAR_PX, domainFor, horizonFor, markExtent, nextHorizon, stackMarks, STAGE_CAPTION_CHAR_PX } from './layout.js';
import { runSummary } from './runSummary.js';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { makeScale } from './timeScale.js';

const mark = (id: string, atMs: number): Mark => ({
  id,
  kind: 'note',
  atMs,
  tag: null,
  caption: null,
  label: id,
  details: [],
  major: true,
});

describe('layout', () => {
  it('fits a finished run, with room on the right for the final state and its words', () => {
    const s = domainFor(runSummary(blindDelRun()), 200, 1200);
    expect(s.startMs).toBe(0);
    expect(s.endMs).toBeCloseTo(1030 * (1 + 220 / 980));
  });

  it('uses the horizon of the live edge while running, and grows it on round numbers', () => {
    const running = runSummary(blindDelRun().slice(0, 10));
    expect(domainFor(running, 300).endMs).toBe(500);
    expect([0, 184, 185, 460, 461, 920, 921].map(horizonFor)).toEqual([200, 200, 500, 500, 1000, 1000, 2000]);
    expect([200, 500, 1000, 2000].map(nextHorizon)).toEqual([500, 1000, 2000, 5000]);
    // Never behind the last event, whatever the clock says.
    expect(domainFor(running, 0).endMs).toBe(horizonFor(running.lastMs));
  });

  it('grows the horizon with the time and never shrinks it', () => {
    let last = 0;
    for (let ms = 0; ms < 100_000; ms += 37) {
      const h = horizonFor(ms);
      expect(h).toBeGreaterThanOrEqual(last);
      expect(ms).toBeLessThanOrEqual(h * 0.92);
      last = h;
    }
  });

  it('stacks marks that would collide, glyph and caption', () => {
    const fixed = () => ({ glyph: 2, caption: 5 });
    const placed = stackMarks(
      [mark('a', 100), mark('b', 101), mark('c', 500), mark('d', 102), mark('e', 170)],
      makeScale(0, 1000),
      fixed,
      3,
    );
    expect(placed.map((p) => [p.mark.id, p.row])).toEqual([
      ['a', 0],
      ['b', 1],
      ['d', 2],
      ['e', 0], // at 17% it clears a's glyph and caption, which end at 16%
      ['c', 0],
    ]);
  });

  it('flips captions that would run past the right edge and counts them to the left', () => {
    const fixed = () => ({ glyph: 2, caption: 10 });
    const placed = stackMarks([mark('a', 850), mark('b', 900), mark('c', 950)], makeScale(0, 1000), fixed);
    expect(placed.map((p) => [p.mark.id, p.row, p.flip])).toEqual([
      ['a', 0, false], // 85% + 1 + 10 = 96%: it fits
      ['b', 1, true],
      ['c', 1, true], // from 84% to 96%: clear of neither row, so the row that frees up first (b's, at 91%)
    ]);
    // A long caption flips well before the edge; a short one stays right of its glyph close to it.
    const long = stackMarks([mark('x', 700)], makeScale(0, 1000), () => ({ glyph: 2, caption: 35 }));
    const short = stackMarks([mark('y', 940)], makeScale(0, 1000), () => ({ glyph: 2, caption: 4 }));
    expect([long[0]!.flip, short[0]!.flip]).toEqual([true, false]);
    // Too long for either side (a narrow track): it stays on the side with more room.
    const huge = () => ({ glyph: 2, caption: 80 });
    expect(stackMarks([mark('l', 300), mark('r', 700)], makeScale(0, 1000), huge).map((p) => p.flip)).toEqual([false, true]);
  });

  it('measures captions in percent of the track', () => {
    const m = { ...mark('a', 0), caption: 'email' };
    expect(markExtent(1000)(m)).toEqual({ glyph: 3, caption: (12 + 5 * 7.5) / 10 });
    expect(markExtent(1000)({ ...m, major: false })).toEqual({ glyph: 1.6, caption: 0 });
  });

  it('counts the larger captions of the stage: marks that clear each other on the page take two rows there', () => {
    const caption = 'late-registration #1'; // 20 characters: 162 px on the page, 222 px on stage
    const marks = [
      { ...mark('a', 0), caption },
      { ...mark('b', 200), caption },
    ];
    const rows = (charPx: number) => stackMarks(marks, makeScale(0, 1000), markExtent(1000, charPx)).map((p) => p.row);
    expect(rows(CAPTION_CHAR_PX)).toEqual([0, 0]);
    expect(rows(STAGE_CAPTION_CHAR_PX)).toEqual([0, 1]);
  });
});
