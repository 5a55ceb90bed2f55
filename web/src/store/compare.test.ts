import { createRecording, type ClientMessage } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../model/fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { tokenLuaRun } from '../model/fixtures/tokenLuaRun.js';
import { createAppStore } from './index.js';
import { counterpartOf } from './runsSlice.js';
import {
  selectComparing,
  selectCurrentEvents,
  selectCurrentLog,
  selectHeldMs,
  selectLiveInProgress,
  selectRunInProgress,
  selectRunScenario,
} from './selectors.js';

function setup() {
  const store = createAppStore();
  const sent: ClientMessage[] = [];
  store.getState().setTransport((m) => (sent.push(m), true));
  store.getState().setCatalog([duplicateJobManifest]);
  return { store, sent };
}

const starts = (sent: ClientMessage[]) => sent.filter((m): m is Extract<ClientMessage, { type: 'start-run' }> => m.type === 'start-run');

describe('compare', () => {
  it('picks the first variant of the other kind, or the chosen one', () => {
    const [noLock, blindDel, tokenLua] = duplicateJobManifest.variants;
    expect(counterpartOf(duplicateJobManifest, noLock!, null)).toBe(tokenLua);
    expect(counterpartOf(duplicateJobManifest, tokenLua!, null)).toBe(noLock);
    expect(counterpartOf(duplicateJobManifest, noLock!, 'blind-del')).toBe(blindDel);
  });

  it('starts both variants with the same parameters and speed; faults where they fit', () => {
    const { store, sent } = setup();
    store.getState().selectVariant('token-lua');
    store.getState().setCompareWith('blind-del');
    store.getState().setFaults([{ checkpoint: 'before-send', target: 'first', action: 'stall', ms: 300 }]);
    store.getState().setSpeed(0.5);
    store.getState().setParamInput('workers', '4');
    expect(store.getState().startCompare()).toBe(true);
    const [a, b] = starts(sent);
    // Broken first, so that it is drawn on top.
    expect([a!.variant, b!.variant]).toEqual(['blind-del', 'token-lua']);
    expect(a!.params).toEqual(b!.params);
    expect(a!.params).toMatchObject({ workers: 4 });
    expect([a!.speed, b!.speed]).toEqual([0.5, 0.5]);
    expect(a!.faults).toEqual([{ checkpoint: 'before-send', target: 'first', action: 'stall', ms: 300 }]);
    expect(b!.faults).toEqual([]); // token-lua has no such checkpoint
    expect(selectComparing(store.getState())).toBe(true);

    // Answers may come in any order; the broken run stays on top.
    store.getState().runAccepted(b!.requestId, 'run-b');
    store.getState().runAccepted(a!.requestId, 'run-a');
    expect(store.getState().shown).toEqual(['run-a', 'run-b']);
    store.getState().appendEvents('run-a', blindDelRun(), 0);
    store.getState().appendEvents('run-b', tokenLuaRun().slice(0, 4), 0);
    expect(selectRunInProgress(store.getState())).toBe(true); // run-b is still going
    expect(selectLiveInProgress(store.getState())).toBe(true);
    store.getState().cancelRun();
    expect(sent.filter((m) => m.type === 'cancel-run')).toEqual([{ type: 'cancel-run', runId: 'run-b' }]);
  });

  it('sends live faults for a worker of a run', () => {
    const { store, sent } = setup();
    expect(store.getState().sendFault('run-1', 'worker-2', 'pause')).toBe(true);
    expect(sent).toEqual([{ type: 'fault', runId: 'run-1', workerId: 'worker-2', action: 'pause' }]);
  });

  it('resets the fault plan and the counterpart with the variant', () => {
    const { store } = setup();
    store.getState().selectVariant('blind-del');
    expect(store.getState().faults).toEqual(duplicateJobManifest.variants[1]!.faults);
    store.getState().setCompareWith('token-lua');
    store.getState().selectVariant('token-lua');
    expect(store.getState().compareWith).toBeNull();
    expect(store.getState().faults).toEqual([]);
  });
});

describe('recordings', () => {
  it('shows a recording whole, with its setup, and without a server', () => {
    const store = createAppStore(); // no catalog, no transport
    const recording = createRecording(duplicateJobManifest, 'blind-del', blindDelRun(), new Date('2026-01-01T00:00:00Z'));
    const runId = store.getState().loadRecording(recording, 'x.json');
    const s = store.getState();
    expect(s.shown).toEqual([runId]);
    expect(selectCurrentEvents(s)).toHaveLength(blindDelRun().length);
    expect(selectRunScenario(s)).toBe(duplicateJobManifest);
    expect([s.scenarioId, s.variantId, s.paramInputs.offsetsMs]).toEqual(['duplicate-job', 'blind-del', '0,600,850']);
    expect(selectRunInProgress(s)).toBe(false);
  });

  it('shows a recording up to the cursor, and from the start again when another comes on screen', () => {
    const store = createAppStore();
    const recording = createRecording(duplicateJobManifest, 'blind-del', blindDelRun(), new Date());
    const source = store.getState().loadRecording(recording);
    const log = store.getState().runs[source]!.events;
    store.getState().setCursor({ mode: 'replay', atMs: 500, rate: 0.5 });
    let s = store.getState();
    expect(s.shown).toEqual([source]);
    expect(selectCurrentEvents(s).every((e) => e.atMs <= 500)).toBe(true);
    expect(selectCurrentLog(s)).toBe(log);
    expect(selectRunInProgress(s)).toBe(true);
    expect(selectLiveInProgress(s)).toBe(false); // a replay takes no faults
    store.getState().setCursor({ mode: 'held', atMs: 500 });
    expect(selectHeldMs(store.getState())).toBe(500);
    expect(selectRunInProgress(store.getState())).toBe(false); // held: nothing moves
    store.getState().loadRecording(recording);
    s = store.getState();
    expect(s.cursor).toEqual({ mode: 'live' });
    expect(selectCurrentEvents(s)).toHaveLength(blindDelRun().length);
  });
});

describe('links', () => {
  it('restores a setup, keeping only what the scenario knows', () => {
    const { store } = setup();
    store.getState().applySetup({
      scenario: 'duplicate-job',
      variant: 'blind-del',
      params: { workers: '5', bogus: '1' },
      faults: [],
      speed: 0.25,
      compare: 'token-lua',
    });
    const s = store.getState();
    expect([s.variantId, s.paramInputs.workers, s.paramInputs.bogus, s.speed, s.compareWith]).toEqual([
      'blind-del',
      '5',
      undefined,
      0.25,
      'token-lua',
    ]);
    expect(s.faults).toEqual([]);
  });
});
