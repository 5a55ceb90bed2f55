// Recorded runs: shown whole at once, or replayed as if live (events appended by the
// replay player at their own times). Neither needs a server.
import { formatParam, type EventOf, type Recording } from '@racelab/shared';
import { newRecord, pruned } from './runRecords.js';
import { findScenario } from './selectionSlice.js';
import type { RunsSlice, SliceCreator } from './types.js';

let counter = 0;

export const createRecordingActions: SliceCreator<Pick<RunsSlice, 'loadRecording' | 'beginReplay'>> = (set, get) => ({
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
    set((s) => ({ runs: pruned({ ...s.runs, [runId]: record }, [runId]), shown: [runId], pending: [], runError: null }));
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

  beginReplay(sourceRunId, rate, nowMs) {
    const source = get().runs[sourceRunId];
    if (!source) return null;
    const runId = `replay-${++counter}`;
    const record = newRecord({
      runId,
      scenario: source.scenario,
      variant: source.variant,
      source: 'replay',
      manifest: source.manifest ?? findScenario(get(), source.scenario) ?? null,
      file: source.file,
      clientOriginMs: nowMs,
      rate,
    });
    set((s) => ({ runs: pruned({ ...s.runs, [runId]: record }, [runId, sourceRunId]), shown: [runId] }));
    return runId;
  },
});
