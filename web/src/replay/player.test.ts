import { createRecording } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../model/fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { runSummary } from '../model/runSummary.js';
import { createAppStore } from '../store/index.js';
import { dueCount, playRun } from './player.js';

describe('replay player', () => {
  it('counts the events due at a moment', () => {
    const events = blindDelRun().sort((a, b) => a.atMs - b.atMs);
    expect(dueCount(events, -1)).toBe(0);
    expect(dueCount(events, 0)).toBe(2);
    expect(dueCount(events, 1e9)).toBe(events.length);
  });

  it('feeds the store at the recording’s pace, scaled by the rate', () => {
    const store = createAppStore();
    const source = store.getState().loadRecording(createRecording(duplicateJobManifest, 'blind-del', blindDelRun(), new Date()));
    let clock = 0;
    const frames: (() => void)[] = [];
    const player = playRun(store, source, 0.5, { now: () => clock, requestFrame: (fn) => frames.push(fn), cancelFrame: () => {} })!;
    const events = () => store.getState().runs[player.runId]!.events;
    expect(events().length).toBe(2); // what happened at 0 ms
    clock = 1000; // 500 ms of run time at half speed
    frames.shift()!();
    expect(events().every((e) => e.atMs <= 500)).toBe(true);
    expect(runSummary(events()).phase).toBe('running');
    clock = 3000;
    frames.shift()!();
    expect(events()).toHaveLength(blindDelRun().length);
    expect(runSummary(events()).phase).toBe('finished');
    expect(frames).toHaveLength(0); // done: no more frames
  });
});
