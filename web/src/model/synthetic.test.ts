import { parseRunEvent } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { deriveOverlaps } from './holders.js';
import { deriveLanes } from './lanes.js';
import { runSummary } from './runSummary.js';
import { deriveStory } from './story.js';
import { deriveStoreLanes } from './storeLanes.js';
import { syntheticRun } from './synthetic.js';

describe('synthetic run', () => {
  it('is deterministic, valid and of the asked size', () => {
    const a = syntheticRun({ events: 2000, seed: 7 });
    expect(syntheticRun({ events: 2000, seed: 7 })).toEqual(a);
    expect(a.length).toBeGreaterThanOrEqual(2000);
    expect(a.length).toBeLessThan(2040);
    expect(a.every((e) => parseRunEvent(e) !== null)).toBe(true);
    expect(a.every((e, i) => e.seq === i)).toBe(true);
  });

  it('goes through every derivation, with overlaps and refused stale writes', () => {
    const events = syntheticRun({ events: 3000, workers: 4 });
    expect(runSummary(events).phase).toBe('finished');
    expect(deriveLanes(events)).toHaveLength(4);
    expect(deriveOverlaps(events).length).toBeGreaterThan(10);
    expect(deriveStoreLanes(events).map((l) => l.name)).toEqual(['lock:synthetic', 'document']);
    expect(deriveStory(events).some((l) => l.text.endsWith('the row refused it — the stale write was stopped.'))).toBe(true);
  });

  it('derives a 50,000-event log in well under the time of a page load', () => {
    const events = syntheticRun({ events: 50_000 });
    const t0 = performance.now();
    deriveLanes(events);
    deriveStoreLanes(events);
    deriveOverlaps(events);
    const ms = performance.now() - t0;
    console.log(`derivations of ${events.length} events: ${ms.toFixed(0)} ms`);
    expect(runSummary(events).phase).toBe('finished');
  });
});
