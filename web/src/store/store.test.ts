import type { ClientMessage } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../model/fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { createAppStore } from './index.js';
import { selectCurrentEvents, selectRunInProgress, takesFaults } from './selectors.js';

function setup() {
  const store = createAppStore();
  const sent: ClientMessage[] = [];
  store.getState().setTransport((m) => (sent.push(m), true));
  store.getState().setCatalog([duplicateJobManifest]);
  return { store, sent };
}

describe('store', () => {
  it('selects the first scenario and variant with its defaults', () => {
    const { store } = setup();
    const s = store.getState();
    expect([s.scenarioId, s.variantId]).toEqual(['duplicate-job', 'no-lock']);
    expect(s.paramInputs.workers).toBe('3');
  });

  it('resets the parameters to the new variant’s defaults', () => {
    const { store } = setup();
    store.getState().setParamInput('ttlMs', '999');
    store.getState().selectVariant('token-lua');
    expect(store.getState().paramInputs.ttlMs).toBe('400');
  });

  it('keeps typed parameters when the same catalog comes again', () => {
    const { store } = setup();
    store.getState().setParamInput('workers', '7');
    store.getState().setCatalog([duplicateJobManifest]);
    expect(store.getState().paramInputs.workers).toBe('7');
  });

  it('refuses to start with an invalid parameter', () => {
    const { store, sent } = setup();
    store.getState().setParamInput('workers', '0');
    expect(store.getState().startRun()).toBe(false);
    expect(sent).toEqual([]);
    expect(store.getState().runError).toMatch(/parameter 'workers' must be an integer from 1 to 8/);
  });

  it('starts a run, follows its events and ends when it finishes', () => {
    const { store, sent } = setup();
    store.getState().setParamInput('workers', '7');
    expect(store.getState().startRun()).toBe(true);
    const msg = sent[0]!;
    expect(msg).toMatchObject({ type: 'start-run', scenario: 'duplicate-job', variant: 'no-lock', faults: [], speed: 1 });
    if (msg.type !== 'start-run') throw new Error();
    expect(msg.params).toMatchObject({ workers: 7, offsetsMs: '0,600,850' });
    expect(selectRunInProgress(store.getState())).toBe(true);
    expect(store.getState().startRun()).toBe(false); // one at a time

    store.getState().runAccepted(msg.requestId, 'run-1', ['worker-1', 'worker-2']);
    // The workers the server named on taking the run, before any event.
    expect(store.getState().runs['run-1']!.roster).toEqual(['worker-1', 'worker-2']);
    const events = blindDelRun();
    store.getState().appendEvents('run-1', events.slice(0, 5), 996);
    const before = selectCurrentEvents(store.getState());
    expect(before).toHaveLength(5);
    expect(selectCurrentEvents(store.getState())).toBe(before); // stable identity
    store.getState().appendEvents('run-1', events.slice(3), 1010); // overlaps: duplicates dropped
    expect(selectCurrentEvents(store.getState())).toHaveLength(events.length);
    expect(selectRunInProgress(store.getState())).toBe(false);
    expect(store.getState().runs['run-1']!.clientOriginMs).toBe(996); // the lowest estimate wins;
  });

  it("offers a live run's workers faults from its run-started to its end, not while they start", () => {
    const { store, sent } = setup();
    store.getState().startRun();
    store.getState().runAccepted((sent[0] as { requestId: string }).requestId, 'run-3', ['worker-1', 'worker-2']);
    const faultable = () => takesFaults(store.getState().runs['run-3']);
    // Lanes from the roster, workers still starting: the server would refuse a fault.
    expect(selectRunInProgress(store.getState())).toBe(true);
    expect(faultable()).toBe(false);
    const events = blindDelRun();
    expect(events[0]!.type).toBe('run-started');
    store.getState().appendEvents('run-3', events.slice(0, 1), 0);
    expect(faultable()).toBe(true);
    store.getState().appendEvents('run-3', events.slice(1), 0);
    expect(faultable()).toBe(false);
  });

  it('shows a rejection and frees the Run button', () => {
    const { store, sent } = setup();
    store.getState().startRun();
    const { requestId } = sent[0] as { requestId: string };
    store.getState().runRejected(requestId, 'a run is already in progress');
    expect(store.getState().runError).toBe('a run is already in progress');
    expect(selectRunInProgress(store.getState())).toBe(false);
  });

  it('gives up following a run when the connection drops', () => {
    const { store, sent } = setup();
    store.getState().startRun();
    store.getState().runAccepted((sent[0] as { requestId: string }).requestId, 'run-2');
    store.getState().appendEvents('run-2', blindDelRun().slice(0, 3), 0);
    expect(selectRunInProgress(store.getState())).toBe(true);
    store.getState().connectionLost();
    expect(selectRunInProgress(store.getState())).toBe(false);
    expect(store.getState().runs['run-2']!.lost).toBe(true);
  });

  it('runs an open exercise’s edited code as your-fix, set up as the variant it starts from', () => {
    const { store, sent } = setup();
    expect(store.getState().startExerciseRun('code')).toBe(false); // no exercise open
    store.getState().setExercises({
      state: 'answered',
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
    });
    store.getState().openExercise('duplicate-job');
    expect(store.getState().variantId).toBe('blind-del');
    expect(store.getState().startExerciseRun('edited code')).toBe(true);
    const msg = sent[0]!;
    expect(msg).toMatchObject({ type: 'start-run', scenario: 'duplicate-job', variant: 'blind-del', exercise: { code: 'edited code' } });
    if (msg.type !== 'start-run') throw new Error();
    store.getState().runAccepted(msg.requestId, 'run-x', ['worker-1']);
    expect(store.getState().runs['run-x']?.variant).toBe('your-fix');
    store.getState().openExercise(null);
    expect(store.getState().startExerciseRun('edited code')).toBe(false); // the exercise is closed
  });
});
