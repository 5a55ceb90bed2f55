import { createRecording, type EmbedReport } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { logEndMs } from '../model/cursor.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { runs } from '../model/fixtures/runs/index.js';
import { createAppStore } from '../store/index.js';
import { startReports } from './embedReports.js';

function harness() {
  const store = createAppStore();
  const posted: EmbedReport[] = [];
  let clock = 0;
  const timers: (() => void)[] = [];
  const stop = startReports(store, (r) => posted.push(r), {
    now: () => clock,
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => timers.splice(0),
  });
  const of = <T extends EmbedReport['type']>(type: T) => posted.filter((r): r is Extract<EmbedReport, { type: T }> => r.type === type);
  return {
    store,
    posted,
    of,
    stop,
    advance: (ms: number) => (clock += ms),
    fire: () => timers.splice(0).forEach((fn) => fn()),
  };
}

const events = runs['duplicate-job/blind-del']!;
const endMs = logEndMs(events);
const recording = createRecording(duplicateJobManifest, 'blind-del', events, new Date(0));

describe('what the embed reports', () => {
  it('says it is ready, then the verdict and where the playhead is once a recording is shown', () => {
    const h = harness();
    expect(h.posted).toEqual([{ racelab: 1, type: 'ready', shown: null }]);
    h.store.getState().loadRecording(recording, 'duplicate-job-blind-del.json');
    const shown = { scenario: 'duplicate-job', variant: 'blind-del', recording: 'duplicate-job-blind-del.json', runId: null };
    expect(h.of('verdict')).toEqual([{ racelab: 1, type: 'verdict', ...shown, pass: false, headline: expect.stringMatching(/^FAIL/) }]);
    expect(h.of('cursor')).toEqual([{ racelab: 1, type: 'cursor', ms: endMs, endMs, playing: false }]);
    expect(h.of('ended')).toEqual([]);
  });

  it('reports a moving playhead at most every 100 ms, always its last position, then the verdict and the end', () => {
    const h = harness();
    h.store.getState().loadRecording(recording, null);
    h.advance(1000);
    const replay = (atMs: number) => h.store.getState().setCursor({ mode: 'replay', atMs, rate: 1 });
    replay(0);
    replay(10);
    replay(20);
    // The first at once; the rest wait for the next slot, and then only the last is told.
    expect(h.of('cursor').slice(1)).toEqual([{ racelab: 1, type: 'cursor', ms: 0, endMs, playing: true }]);
    h.advance(100);
    h.fire();
    expect(h.of('cursor').slice(2)).toEqual([{ racelab: 1, type: 'cursor', ms: 20, endMs, playing: true }]);
    expect(h.of('verdict')).toHaveLength(1); // the one at load: the replay has not reached the end
    h.advance(100);
    replay(endMs);
    expect(h.of('verdict')).toHaveLength(2);
    expect(h.of('ended')).toEqual([{ racelab: 1, type: 'ended', ms: endMs }]);
    expect(h.of('cursor').at(-1)).toEqual({ racelab: 1, type: 'cursor', ms: endMs, endMs, playing: false });
    h.stop();
    replay(5);
    expect(h.of('cursor').at(-1)?.ms).toBe(endMs);
  });

  it('reports a held playhead where it was put', () => {
    const h = harness();
    h.store.getState().loadRecording(recording, null);
    h.advance(500);
    h.store.getState().setCursor({ mode: 'held', atMs: 42 });
    expect(h.of('cursor').at(-1)).toEqual({ racelab: 1, type: 'cursor', ms: 42, endMs, playing: false });
    expect(h.of('ended')).toEqual([]);
  });
});

describe('ready', () => {
  it('waits for the run the link names, and comes before any other report', () => {
    const store = createAppStore();
    const posted: EmbedReport[] = [];
    startReports(store, (r) => posted.push(r), {}, true);
    expect(posted).toEqual([]);
    store.getState().loadRecording(recording, 'duplicate-job-blind-del.json');
    expect(posted[0]).toEqual({
      racelab: 1,
      type: 'ready',
      shown: { scenario: 'duplicate-job', variant: 'blind-del', recording: 'duplicate-job-blind-del.json', runId: null },
    });
    expect(
      posted
        .map((r) => r.type)
        .slice(1)
        .sort(),
    ).toEqual(['cursor', 'verdict']);
  });

  it('comes when the run did not open, too', () => {
    const store = createAppStore();
    const posted: EmbedReport[] = [];
    startReports(store, (r) => posted.push(r), {}, true);
    store.getState().setNotice('The recording did not open');
    expect(posted).toEqual([{ racelab: 1, type: 'ready', shown: null }]);
  });
});
