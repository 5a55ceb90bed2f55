import { createRecording } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../model/fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { runSummary } from '../model/runSummary.js';
import { createAppStore } from '../store/index.js';
import { selectCurrentEvents, selectReplaying, selectRunInProgress } from '../store/selectors.js';
import { replayShown, type PlayerDeps } from './player.js';

function setup() {
  const store = createAppStore();
  const runId = store.getState().loadRecording(createRecording(duplicateJobManifest, 'blind-del', blindDelRun(), new Date()));
  const clock = { ms: 0 };
  const frames: (() => void)[] = [];
  const deps: PlayerDeps = { now: () => clock.ms, requestFrame: (fn) => frames.push(fn), cancelFrame: () => {} };
  return { store, runId, clock, frames, deps };
}

describe('replay player', () => {
  it('moves the cursor at the recording’s pace, scaled by the rate', () => {
    const { store, clock, frames, deps } = setup();
    replayShown(store, 0.5, 0, deps);
    const shown = () => selectCurrentEvents(store.getState());
    expect(shown().length).toBe(2); // what happened at 0 ms
    expect(selectReplaying(store.getState())).toBe(true);
    expect(selectRunInProgress(store.getState())).toBe(true);
    clock.ms = 1000; // 500 ms of run time at half speed
    frames.shift()!();
    expect(store.getState().cursor).toEqual({ mode: 'replay', atMs: 500, rate: 0.5 });
    expect(shown().every((e) => e.atMs <= 500)).toBe(true);
    expect(runSummary(shown()).phase).toBe('running');
    clock.ms = 3000;
    frames.shift()!();
    expect(shown()).toHaveLength(blindDelRun().length);
    expect(runSummary(shown()).phase).toBe('finished');
    expect(selectReplaying(store.getState())).toBe(false);
    expect(frames).toHaveLength(0); // done: no more frames
  });

  it('makes no copy of the log: the record and its events array stay the same objects', () => {
    const { store, runId, clock, frames, deps } = setup();
    const record = store.getState().runs[runId];
    const events = record!.events;
    const ids = Object.keys(store.getState().runs);
    replayShown(store, 1, 0, deps);
    for (clock.ms = 100; frames.length > 0; clock.ms += 100) frames.shift()!();
    expect(store.getState().runs[runId]).toBe(record);
    expect(store.getState().runs[runId]!.events).toBe(events);
    expect(Object.keys(store.getState().runs)).toEqual(ids); // no second record either
    expect(store.getState().shown).toEqual([runId]);
    // At the end the run shows its log itself.
    expect(selectCurrentEvents(store.getState())).toBe(events);
  });

  it('stops as soon as something else moves the cursor', () => {
    const { store, clock, frames, deps } = setup();
    replayShown(store, 1, 0, deps);
    clock.ms = 100;
    frames.shift()!();
    store.getState().setCursor({ mode: 'held', atMs: 120 }); // a step pauses it
    clock.ms = 200;
    frames.shift()!();
    expect(store.getState().cursor).toEqual({ mode: 'held', atMs: 120 });
    expect(frames).toHaveLength(0);
  });

  it('goes on from a held moment', () => {
    const { store, clock, frames, deps } = setup();
    replayShown(store, 1, 600, deps);
    expect(store.getState().cursor).toEqual({ mode: 'replay', atMs: 600, rate: 1 });
    clock.ms = 50;
    frames.shift()!();
    expect(store.getState().cursor).toEqual({ mode: 'replay', atMs: 650, rate: 1 });
  });
});
