import { describe, expect, it } from 'vitest';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { runs } from '../model/fixtures/runs/index.js';
import { createAppStore } from '../store/index.js';
import { setupOf, startUrlSync } from './urlSync.js';

function fakeLocation(search: string) {
  const location = { search, pathname: '/', hash: '' } as Location;
  const history = {
    state: null,
    replaceState(_s: unknown, _t: string, url: string) {
      location.search = url.slice(1).replace(/^[^?]*/, '');
    },
  } as unknown as History;
  return { location, history };
}

describe('the URL holds the setup', () => {
  it('says only what differs from the variant’s defaults', () => {
    const store = createAppStore();
    store.getState().setCatalog([duplicateJobManifest]);
    expect(setupOf(store.getState())).toEqual({ scenario: 'duplicate-job', variant: 'no-lock', params: {} });
    store.getState().setParamInput('workers', '5');
    store.getState().setSpeed(0.5);
    expect(setupOf(store.getState())).toEqual({ scenario: 'duplicate-job', variant: 'no-lock', params: { workers: '5' }, speed: 0.5 });
  });

  it('restores a link once the catalog arrives, then follows every change', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?scenario=duplicate-job&variant=blind-del&p.workers=4&faults=&speed=0.25&presenter=1');
    startUrlSync(store, location, history);
    expect(store.getState().presenter).toBe(true);
    expect(location.search).toContain('p.workers=4'); // untouched before the catalog
    store.getState().setCatalog([duplicateJobManifest]);
    expect(store.getState().variantId).toBe('no-lock'); // and before the server said which exercises it has
    store.getState().setExercises({ state: 'no-server', why: 'no server' });
    const s = store.getState();
    expect([s.variantId, s.paramInputs.workers, s.faults, s.speed]).toEqual(['blind-del', '4', [], 0.25]);
    store.getState().setParamInput('workers', '6');
    expect(location.search).toBe('?scenario=duplicate-job&variant=blind-del&p.workers=6&faults=&speed=0.25&presenter=1&chapter=1');
  });

  it('opens the scorecard from a link and keeps it in the link, with no catalog', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?scorecard=1');
    startUrlSync(store, location, history);
    expect(store.getState().scorecard).toBe(true);
    store.getState().setScorecard(false);
    expect(location.search).toBe('');
    store.getState().setScorecard(true);
    expect(location.search).toBe('?scorecard=1');
  });
});

describe('a link to an exercise', () => {
  const exercises = {
    state: 'answered' as const,
    allowed: true,
    why: 'bound to loopback',
    list: [
      {
        scenario: 'duplicate-job',
        title: 'Duplicate job',
        start: { variant: 'blind-del', title: 'SET NX PX, release with DEL', code: 'start' },
        hints: ['idea', 'primitive'],
        sets: [{ label: 'the defaults', params: {}, reason: 'the defaults' }],
      },
    ],
  };

  it('opens the exercise, set up as the variant it starts from, and keeps it in the link', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?exercise=duplicate-job');
    startUrlSync(store, location, history);
    store.getState().setCatalog([duplicateJobManifest]);
    store.getState().setExercises(exercises);
    expect([store.getState().exercise, store.getState().variantId]).toEqual(['duplicate-job', 'blind-del']);
    expect(location.search).toBe('?exercise=duplicate-job&scenario=duplicate-job&variant=blind-del');
    store.getState().openExercise(null);
    expect(location.search).toBe('?scenario=duplicate-job&variant=blind-del');
  });

  it('opens a presenter chapter that is an exercise step', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?presenter=1&workshop=1&chapter=4');
    startUrlSync(store, location, history);
    store.getState().setExercises(exercises);
    store.getState().setCatalog([duplicateJobManifest]);
    expect([store.getState().exercise, store.getState().variantId]).toEqual(['duplicate-job', 'blind-del']);
    expect(location.search).toContain('chapter=4');
    expect(location.search).toContain('workshop=1');
  });

  it("keeps a talk's chapters free of exercise steps: chapter 4 is the next scenario's, not an exercise", () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?presenter=1&chapter=4');
    startUrlSync(store, location, history);
    store.getState().setExercises(exercises);
    store.getState().setCatalog([duplicateJobManifest, { ...duplicateJobManifest, id: 'next-scenario' }]);
    expect([store.getState().exercise, store.getState().scenarioId]).toEqual([null, 'next-scenario']);
  });
});

describe('a link to a moment of a live run', () => {
  const events = runs['fencing/lease-only']!;
  const write = events.find((e) => e.type === 'write-accepted')!;

  it('shows the run it names and puts the playhead at its time once the server has sent that far', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation(`?run=3fa9c01b2e&t=1830&event=${write.seq}`);
    startUrlSync(store, location, history);
    expect(store.getState().shown).toEqual(['3fa9c01b2e']);
    expect(store.getState().resumable()).toEqual([{ runId: '3fa9c01b2e', afterSeq: -1 }]);
    expect(store.getState().cursor).toEqual({ mode: 'live' });
    // The server sends the log from the start; before 1830 ms is in it, nothing moves.
    const before = events.filter((e) => e.atMs < 1000);
    store.getState().appendEvents('3fa9c01b2e', before, 0);
    expect(store.getState().cursor).toEqual({ mode: 'live' });
    store.getState().appendEvents('3fa9c01b2e', events.slice(before.length), 0);
    const s = store.getState();
    expect(s.cursor).toEqual({ mode: 'held', atMs: 1830 });
    expect(s.selectedEvent).toBe(write.seq);
    expect([s.runs['3fa9c01b2e']!.scenario, s.runs['3fa9c01b2e']!.variant]).toEqual(['fencing', 'lease-only']);
    // The link keeps the run and the moment; a step moves on, and the link with it.
    expect(location.search).toBe(`?run=3fa9c01b2e&t=1830&event=${write.seq}`);
    s.setCursor({ mode: 'held', atMs: 2000 });
    expect(location.search).toBe(`?run=3fa9c01b2e&t=2000&event=${write.seq}`);
  });

  it('goes to the event’s time when the link names an event and no time', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation(`?run=r1&event=${write.seq}`);
    startUrlSync(store, location, history);
    store.getState().appendEvents('r1', events, 0);
    expect(store.getState().cursor).toEqual({ mode: 'held', atMs: write.atMs });
  });

  it('says so when the server no longer keeps the run', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?run=gone&t=5');
    startUrlSync(store, location, history);
    store.getState().runUnknown('gone');
    expect(store.getState().notice).toMatch(/not kept by this server/);
    expect(store.getState().cursor).toEqual({ mode: 'live' });
  });

  it('keeps an embed’s own fields in its address', () => {
    const store = createAppStore();
    const { location, history } = fakeLocation('?embed=1&origin=https://blog.example&run=r2');
    startUrlSync(store, location, history);
    store.getState().appendEvents('r2', events, 0);
    store.getState().setCursor({ mode: 'held', atMs: 100 });
    expect(location.search).toBe('?embed=1&run=r2&t=100&origin=https://blog.example');
  });
});
