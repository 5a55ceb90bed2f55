import { EXERCISE_VARIANT_ID, type ClientMessage, type EventOf, type ScenarioManifest, type VariantManifest } from '@racelab/shared';
import { exerciseOf } from '../model/exercise/onServer.js';
import { LIVE } from '../model/cursor.js';
import { fitPlan } from '../model/faultPlan.js';
import { checkInputs, wireParams } from '../model/params.js';
import { runSummary } from '../model/runSummary.js';
import { createRecordingActions } from './recordingActions.js';
import { lastSeq, merged, newRecord, pruned } from './runRecords.js';
import { findScenario } from './selectionSlice.js';
import type { PendingRun, RunsSlice, SliceCreator, State } from './types.js';

let requestCounter = 0;

/** The variant a compare puts beside `selected`: the chosen one, else the first of the other kind. */
export function counterpartOf(scenario: ScenarioManifest, selected: VariantManifest, chosen: string | null): VariantManifest | undefined {
  const others = scenario.variants.filter((v) => v.id !== selected.id);
  return others.find((v) => v.id === chosen) ?? others.find((v) => v.correct !== selected.correct) ?? others[0];
}

export const createRunsSlice: SliceCreator<RunsSlice> = (set, get) => {
  /**
   * Sends start-run for each variant, with the same parameters, speed and (where it fits) faults.
   * With `exercise`, the one variant is the exercise's starting one, run with the edited code as `your-fix`.
   */
  const start = (variants: VariantManifest[], exercise?: { code: string }): boolean => {
    const s: State = get();
    const scenario = findScenario(s, s.scenarioId);
    if (!scenario || !s.variantId || s.pending.length > 0) return false;
    if (!s.transport) {
      set({ runError: 'the page is not connected to the server' });
      return false;
    }
    const checked = checkInputs(scenario, s.variantId, s.paramInputs);
    if (!checked.ok) {
      set({ runError: checked.error });
      return false;
    }
    // Broken above correct.
    const ordered = [...variants].sort((a, b) => Number(a.correct) - Number(b.correct));
    const pending: PendingRun[] = [];
    for (const variant of ordered) {
      const requestId = `req-${++requestCounter}-${Date.now().toString(36)}`;
      const message: ClientMessage = {
        type: 'start-run',
        requestId,
        scenario: scenario.id,
        variant: variant.id,
        params: wireParams(checked.params),
        // A schedule plays the variant's own fault plan at the explorer's pace: the server sets both.
        ...(s.schedule && !exercise && variant.id === s.variantId
          ? { schedule: s.schedule }
          : { faults: fitPlan(s.faults, variant).kept, speed: s.speed }),
        ...(exercise ? { exercise } : {}),
      };
      if (!s.transport(message)) return false;
      pending.push({ requestId, scenario: scenario.id, variant: exercise ? EXERCISE_VARIANT_ID : variant.id, slot: pending.length });
    }
    set({ pending, shown: [], runError: null, cursor: LIVE, selectedEvent: null });
    return true;
  };

  return {
    runs: {},
    shown: [],
    pending: [],
    runError: null,

    startRun() {
      const s = get();
      const variant = findScenario(s, s.scenarioId)?.variants.find((v) => v.id === s.variantId);
      return variant ? start([variant]) : false;
    },

    startCompare() {
      const s = get();
      const scenario = findScenario(s, s.scenarioId);
      const selected = scenario?.variants.find((v) => v.id === s.variantId);
      const other = scenario && selected ? counterpartOf(scenario, selected, s.compareWith) : undefined;
      return selected && other ? start([selected, other]) : false;
    },

    startExerciseRun(code) {
      const s = get();
      const info = exerciseOf(s.exercises, s.exercise);
      const from = findScenario(s, info?.scenario ?? null)?.variants.find((v) => v.id === info?.start.variant);
      if (!from || s.scenarioId !== info?.scenario) return false;
      return start([from], { code });
    },

    cancelRun() {
      const { shown, runs, transport } = get();
      for (const id of shown) {
        const run = runs[id];
        if (run?.source === 'live' && transport && runSummary(run.events).phase === 'running') transport({ type: 'cancel-run', runId: id });
      }
    },

    clearShown() {
      set({ shown: [], runError: null, cursor: LIVE, selectedEvent: null });
    },

    sendFault(runId, workerId, action, slowdown) {
      const { transport } = get();
      return transport ? transport({ type: 'fault', runId, workerId, action, ...slowdown }) : false;
    },

    runAccepted(requestId, runId, workers = []) {
      const { pending, runs, shown } = get();
      const request = pending.find((p) => p.requestId === requestId);
      if (!request) return;
      const record = {
        ...(runs[runId] ?? newRecord({ runId, scenario: request.scenario, variant: request.variant })),
        slot: request.slot,
        roster: workers,
      };
      const nextShown = [...shown.filter((id) => id !== runId), runId].sort(
        (a, b) => (a === runId ? record.slot : (runs[a]?.slot ?? 0)) - (b === runId ? record.slot : (runs[b]?.slot ?? 0)),
      );
      set({
        pending: pending.filter((p) => p !== request),
        shown: nextShown,
        cursor: LIVE,
        runs: pruned({ ...runs, [runId]: record }, nextShown),
      });
    },

    runQueued(requestId, position, estimateMs, queueKey) {
      const { pending } = get();
      if (!pending.some((p) => p.requestId === requestId)) return;
      set({ pending: pending.map((p) => (p.requestId === requestId ? { ...p, queued: { position, estimateMs, queueKey } } : p)) });
    },

    leaveQueue() {
      const { pending, transport } = get();
      const waiting = pending.filter((p) => p.queued);
      for (const p of waiting) transport?.({ type: 'cancel-queued', requestId: p.requestId });
      set({ pending: pending.filter((p) => !p.queued) });
    },

    rejoinable() {
      return get().pending.flatMap((p) => (p.queued ? [{ requestId: p.requestId, queueKey: p.queued.queueKey }] : []));
    },

    runRejected(requestId, error) {
      const { pending } = get();
      if (!pending.some((p) => p.requestId === requestId)) return;
      set({ pending: pending.filter((p) => p.requestId !== requestId), runError: error });
    },

    appendEvents(runId, events, originEstimateMs) {
      if (events.length === 0) return;
      set((s) => {
        // Events of a run this page did not start (or that beat run-accepted): learn its name.
        const started = events.find((e): e is EventOf<'run-started'> => e.type === 'run-started');
        const known = s.runs[runId];
        // A linked run is named by its run-started.
        const base =
          known && (known.scenario || !started)
            ? known
            : {
                ...(known ?? newRecord({ runId, scenario: '', variant: '' })),
                scenario: started?.scenario ?? '',
                variant: started?.variant ?? '',
              };
        return { runs: pruned({ ...s.runs, [runId]: merged(base, events, originEstimateMs) }, s.shown) };
      });
    },

    connectionLost() {
      set((s) => {
        const runs = { ...s.runs };
        for (const id of s.shown) {
          const run = runs[id];
          if (run?.source === 'live' && runSummary(run.events).phase !== 'finished' && runSummary(run.events).phase !== 'failed')
            runs[id] = { ...run, lost: true };
        }
        // A start in line keeps its place for a while: the page takes it up again once reconnected.
        const kept = s.pending.filter((p) => p.queued);
        return {
          runs,
          pending: kept,
          runError: s.pending.length > kept.length ? 'the connection dropped before the server answered' : s.runError,
        };
      });
    },

    resumable() {
      const { runs } = get();
      return Object.values(runs)
        .filter((r) => r.source === 'live' && r.lost && !r.serverLost)
        .map((r) => ({ runId: r.runId, afterSeq: lastSeq(r) }));
    },

    runResumed(runId) {
      set((s) => (s.runs[runId] ? { runs: { ...s.runs, [runId]: { ...s.runs[runId], lost: false } } } : {}));
    },

    runUnknown(runId) {
      set((s) => {
        const run = s.runs[runId];
        if (!run) return {};
        // A linked run the server no longer keeps (it keeps the last runs in memory only) says so.
        const notice =
          run.events.length === 0 ? `The run ${runId} is not kept by this server any more: it cannot be shown again.` : s.notice;
        return { runs: { ...s.runs, [runId]: { ...run, lost: true } }, notice };
      });
    },

    runLostWithServer(runId, server) {
      set((s) => {
        const run = s.runs[runId];
        return run ? { runs: { ...s.runs, [runId]: { ...run, lost: true, serverLost: server ? { server } : {} } } } : {};
      });
    },

    runAgain(runId) {
      const s = get();
      const run = s.runs[runId];
      if (!run) return false;
      // The selection is what the run was started from unless the page moved on since.
      if (s.scenarioId !== run.scenario) s.selectScenario(run.scenario);
      if (get().variantId !== run.variant) get().selectVariant(run.variant);
      return get().startRun();
    },

    ...createRecordingActions(set, get),
  };
};
