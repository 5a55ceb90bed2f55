import { describe, expect, it } from 'vitest';
import { domainEndMs, drawnNow, eventsUpTo, LIVE, logEndMs, shownLog, type ClockedLog } from './cursor.js';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { deriveLanes } from './lanes.js';
import { finishedEndMs, horizonFor } from './layout.js';
import { runSummary } from './runSummary.js';

const finished = (): ClockedLog => ({ events: blindDelRun(), clientOriginMs: 1000, lost: false });

describe('cursor', () => {
  it('shows the whole log, the same array, while live or at or past the end', () => {
    const log = blindDelRun();
    expect(shownLog(log, LIVE)).toBe(log);
    expect(shownLog(log, { mode: 'held', atMs: logEndMs(log) })).toBe(log);
    expect(shownLog(log, { mode: 'replay', atMs: 1e9, rate: 1 })).toBe(log);
  });

  it('cuts the log at the cursor, with one array per count of events due', () => {
    const log = blindDelRun();
    const at500 = eventsUpTo(log, 500);
    expect(at500.length).toBeGreaterThan(0);
    expect(at500.length).toBeLessThan(log.length);
    expect(at500.every((e) => e.atMs <= 500)).toBe(true);
    expect(log.filter((e) => e.atMs <= 500)).toEqual(at500);
    // Between two events the cursor moves and the shown log stays the same object.
    const next = log.filter((e) => e.atMs > 500).reduce((t, e) => Math.min(t, e.atMs), Infinity);
    expect(eventsUpTo(log, (500 + next) / 2)).toBe(eventsUpTo(log, 500));
    expect(eventsUpTo(log, next).length).toBeGreaterThan(at500.length);
    expect(eventsUpTo(log, -1)).toEqual([]);
  });

  it('derives lanes from the log up to the cursor as they stood then', () => {
    const log = blindDelRun();
    const shown = shownLog(log, { mode: 'held', atMs: 700 });
    const lanes = deriveLanes(shown);
    expect(lanes.flatMap((l) => l.marks).every((m) => m.atMs <= 700)).toBe(true);
    expect(runSummary(shown).phase).toBe('running');
    expect(runSummary(shownLog(log, LIVE)).phase).toBe('finished');
  });

  it('says where the drawing reaches: the live clock, a held moment, or the replay clock', () => {
    const events = blindDelRun().filter((e) => e.atMs <= 400 && e.type !== 'run-finished');
    const running: ClockedLog = { events, clientOriginMs: 1000, lost: false };
    expect(drawnNow(running, LIVE, 1600)).toEqual({ nowMs: 600, moving: true });
    expect(drawnNow({ ...running, lost: true }, LIVE, 1600)).toEqual({ nowMs: runSummary(events).lastMs, moving: false });
    expect(drawnNow(running, { mode: 'held', atMs: 250 }, 1600)).toEqual({ nowMs: 250, moving: false });
    expect(drawnNow(finished(), LIVE, 99_999)).toEqual({ nowMs: logEndMs(blindDelRun()), moving: false });
    expect(drawnNow(finished(), { mode: 'replay', atMs: 300, rate: 0.5 }, 0)).toEqual({ nowMs: 300, moving: true });
    expect(drawnNow(finished(), { mode: 'replay', atMs: logEndMs(blindDelRun()), rate: 0.5 }, 0).moving).toBe(false);
  });

  it('derives the domain from the log, the cursor and the clock, storing nothing', () => {
    const run = finished();
    const whole = finishedEndMs(logEndMs(run.events), 1200);
    expect(domainEndMs(run, LIVE, 0, 1200)).toBe(whole);
    // A held cursor keeps the whole run's axis; a replay grows it as the live run did.
    expect(domainEndMs(run, { mode: 'held', atMs: 100 }, 0, 1200)).toBe(whole);
    expect(domainEndMs(run, { mode: 'replay', atMs: 100, rate: 1 }, 0, 1200)).toBe(horizonFor(100));
    expect(domainEndMs(run, { mode: 'replay', atMs: 600, rate: 1 }, 0, 1200)).toBe(horizonFor(600));
    expect(domainEndMs(run, { mode: 'replay', atMs: 1e9, rate: 1 }, 0, 1200)).toBe(whole);
    // A live run's domain follows the page clock alone.
    const live: ClockedLog = { events: run.events.slice(0, 3), clientOriginMs: 0, lost: false };
    expect(domainEndMs(live, LIVE, 150, 1200)).toBe(200);
    expect(domainEndMs(live, LIVE, 400, 1200)).toBe(500);
    expect(domainEndMs(live, LIVE, 400, 1200)).toBe(domainEndMs(live, LIVE, 400, 1200));
  });
});
