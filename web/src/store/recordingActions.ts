// Runs that come from elsewhere than this page's Run. A recorded run is shown whole at once
// (the replay clock moves the cursor over the same log, see replay/player) and needs no
// server. A linked live run (a link's `run=`) is shown as lost until the socket subscribes
// to it and the server sends its log from the start (or answers that it no longer keeps it).
import { formatParam, type EventOf, type Recording } from '@racelab/shared';
import { LIVE } from '../model/cursor.js';
import { newRecord, pruned } from './runRecords.js';
import type { RunsSlice, SliceCreator } from './types.js';

let counter = 0;

export const createRecordingActions: SliceCreator<Pick<RunsSlice, 'loadRecording' | 'openLinkedRun'>> = (set, get) => ({
  loadRecording(recording: Recording, file = null) {
    const runId = `recording-${++counter}`;
    const events = [...recording.events].sort((a, b) => a.seq - b.seq);
    const started = events.find((e): e is EventOf<'run-started'> => e.type === 'run-started');
    const record = newRecord({
      runId,
      scenario: recording.scenario.id,
      variant: recording.variant,
      source: 'recording',
      manifest: recording.scenario,
      file,
      events,
    });
    set((s) => ({
      runs: pruned({ ...s.runs, [runId]: record }, [runId]),
      shown: [runId],
      pending: [],
      runError: null,
      cursor: LIVE,
      selectedEvent: null,
    }));
    // The recording's setup becomes the page's: the same run is one press of Run away.
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(started?.params ?? {})) params[name] = formatParam(value);
    get().applySetup({
      scenario: recording.scenario.id,
      variant: recording.variant,
      params,
      ...(started ? { faults: started.faults, speed: started.speed } : {}),
    });
    return runId;
  },

  openLinkedRun(runId) {
    // Lost until resubscribed: the socket's resumable() asks for it from seq -1 once it is open.
    const record = newRecord({ runId, scenario: '', variant: '', lost: true });
    set((s) => ({
      runs: pruned({ ...s.runs, [runId]: s.runs[runId] ?? record }, [runId]),
      shown: [runId],
      pending: [],
      cursor: LIVE,
      selectedEvent: null,
    }));
  },
});
