// The punchline stays in view: what the stores held when a run ended is drawn as a bar with
// room for its words, not as a sliver at the end of the axis — on the page and in exports.
import { describe, expect, it } from 'vitest';
import { runs } from './fixtures/runs/index.js';
import { domainFor, finishedEndMs } from './layout.js';
import { runSummary } from './runSummary.js';
import { deriveStoreLanes, drawnEndMs, segmentText } from './storeLanes.js';
import { timeToX, type TimeScale } from './timeScale.js';
import { timelineSvg } from './export/timelineSvg.js';

const TRACK_PX = 1200;
const widthPx = (startMs: number, endMs: number, scale: TimeScale) => ((timeToX(endMs, scale) - timeToX(startMs, scale)) / 100) * TRACK_PX;

describe('the final state of every recorded run', () => {
  it.each(Object.entries(runs))('%s: each truth lane ends in a bar at least 24 px wide at 1200 px', (_id, events) => {
    const summary = runSummary(events);
    expect(summary.phase).toBe('finished');
    const scale = domainFor(summary, 0, TRACK_PX);
    const lanes = deriveStoreLanes(events);
    expect(lanes.length).toBeGreaterThan(0);
    for (const lane of lanes) {
      const last = lane.segments.at(-1)!;
      expect(last.atEnd).toBe(true);
      const end = drawnEndMs(last, scale)!;
      expect(end).toBe(scale.endMs);
      expect(widthPx(last.startMs, end, scale), `${lane.store} ${lane.name}`).toBeGreaterThanOrEqual(24);
    }
  });

  it('the axis reaches past the end by room for a label, at any width', () => {
    expect(finishedEndMs(1000, 1200)).toBeCloseTo(1000 * (1 + 220 / 980));
    expect(finishedEndMs(1000, 4000)).toBeCloseTo(1080); // at least 8 %
    expect(finishedEndMs(1000, 300)).toBeCloseTo(1250); // at most 25 % on a phone
    expect(finishedEndMs(0, 1200)).toBe(10);
  });

  it('fencing lease-only: the stale row written 17 ms before the end reads as a bar with its words', () => {
    const events = runs['fencing/lease-only']!;
    const scale = domainFor(runSummary(events), 0, TRACK_PX);
    const row = deriveStoreLanes(events).find((l) => l.store === 'PostgreSQL' && l.name === 'document')!;
    const last = row.segments.at(-1)!;
    expect(last.stale).toBe(true);
    expect(segmentText(row.store, last, false)).toBe('worker-1 · fence 1 — stale');
    expect(last.label).toMatch(/^PostgreSQL document = worker-1 · fence 1 — stale, from \d+ ms to the end of the run \(\d+ ms\)$/);
    expect(widthPx(last.startMs, drawnEndMs(last, scale)!, scale)).toBeGreaterThan(150);
    // worker-2's row before it was not stale.
    expect(row.segments.filter((s) => s.value?.startsWith('worker-2')).every((s) => !s.stale)).toBe(true);
    // The fenced run's final row is worker-2's: nothing stale.
    expect(deriveStoreLanes(runs['fencing/fenced']!).some((l) => l.segments.some((s) => s.stale))).toBe(false);
  });

  it('the SVG export draws the same final bar, with its words', () => {
    const events = runs['fencing/lease-only']!;
    const scale = domainFor(runSummary(events), 0, TRACK_PX);
    const width = TRACK_PX + 170 + 32; // the export's label column and padding around a 1200 px track
    const { svg } = timelineSvg([{ title: 'fencing · lease-only', events, scenario: undefined }], scale, width, 'dark');
    const rect = svg.match(
      /<rect x="([\d.]+)" y="\d+" width="([\d.]+)" height="26"[^>]*><title>PostgreSQL document = worker-1 · fence 1 — stale/,
    );
    expect(rect).not.toBeNull();
    expect(Number(rect![2])).toBeGreaterThanOrEqual(24);
    expect(Number(rect![1]) + Number(rect![2])).toBeCloseTo(170 + TRACK_PX, 0);
    expect(svg).toContain('worker-1 · fence 1 — stale');
  });
});
