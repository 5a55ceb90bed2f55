import type { EventOf, RunEvent } from '@racelab/shared';
import { MIN_DOMAIN_MS } from '../model/layout.js';
import { checkInputs, wireParams } from '../model/params.js';
import type { RunRecord, RunsSlice, SliceCreator, State } from './types.js';

/** Runs kept in memory besides the current one. */
const KEEP_RUNS = 8;
let requestCounter = 0;

function newRecord(runId: string, scenario: string, variant: string): RunRecord {
  return { runId, scenario, variant, events: [], clientOriginMs: null, horizonMs: MIN_DOMAIN_MS, lost: false };
}

function pruned(runs: Record<string, RunRecord>, keep: string | null): Record<string, RunRecord> {
  const ids = Object.keys(runs);
  if (ids.length <= KEEP_RUNS) return runs;
  const drop = new Set(ids.filter((id) => id !== keep).slice(0, ids.length - KEEP_RUNS));
  return Object.fromEntries(Object.entries(runs).filter(([id]) => !drop.has(id)));
}

function merged(record: RunRecord, incoming: RunEvent[], originEstimateMs: number): RunRecord {
  const events = record.events.slice();
  let last = events.length > 0 ? events[events.length - 1]!.seq : -1;
  const origin = Number.isFinite(originEstimateMs)
    ? Math.min(record.clientOriginMs ?? originEstimateMs, originEstimateMs)
    : record.clientOriginMs;
  for (const e of incoming) {
    if (e.seq <= last && events.some((x) => x.seq === e.seq)) continue; // a duplicate
    events.push(e);
    last = Math.max(last, e.seq);
  }
  return { ...record, events, clientOriginMs: origin };
}

export const createRunsSlice: SliceCreator<RunsSlice> = (set, get) => ({
  runs: {},
  currentRunId: null,
  pending: null,
  runError: null,

  startRun() {
    const s: State = get();
    const scenario = s.catalog?.find((x) => x.id === s.scenarioId);
    if (!scenario || !s.variantId || !s.transport || s.pending) return false;
    const checked = checkInputs(scenario, s.variantId, s.paramInputs);
    if (!checked.ok) {
      set({ runError: checked.error });
      return false;
    }
    const requestId = `req-${++requestCounter}-${Date.now().toString(36)}`;
    const sent = s.transport({
      type: 'start-run',
      requestId,
      scenario: scenario.id,
      variant: s.variantId,
      params: wireParams(checked.params),
    });
    if (!sent) return false;
    set({ pending: { requestId, scenario: scenario.id, variant: s.variantId }, currentRunId: null, runError: null });
    return true;
  },

  cancelRun() {
    const { currentRunId, transport } = get();
    if (currentRunId && transport) transport({ type: 'cancel-run', runId: currentRunId });
  },

  runAccepted(requestId, runId) {
    const { pending, runs } = get();
    if (pending?.requestId !== requestId) return;
    const record = runs[runId] ?? newRecord(runId, pending.scenario, pending.variant);
    set({ pending: null, currentRunId: runId, runs: pruned({ ...runs, [runId]: record }, runId) });
  },

  runRejected(requestId, error) {
    if (get().pending?.requestId !== requestId) return;
    set({ pending: null, runError: error });
  },

  appendEvents(runId, events, originEstimateMs) {
    if (events.length === 0) return;
    set((s) => {
      // Events of a run this page did not start (or that beat run-accepted): learn its name.
      const started = events.find((e): e is EventOf<'run-started'> => e.type === 'run-started');
      const base = s.runs[runId] ?? newRecord(runId, started?.scenario ?? '', started?.variant ?? '');
      return { runs: pruned({ ...s.runs, [runId]: merged(base, events, originEstimateMs) }, s.currentRunId) };
    });
  },

  extendHorizon(runId, horizonMs) {
    set((s) => {
      const record = s.runs[runId];
      if (!record || record.horizonMs >= horizonMs) return {};
      return { runs: { ...s.runs, [runId]: { ...record, horizonMs } } };
    });
  },

  connectionLost() {
    set((s) => {
      const record = s.currentRunId ? s.runs[s.currentRunId] : undefined;
      const runs = record ? { ...s.runs, [record.runId]: { ...record, lost: true } } : s.runs;
      return {
        runs,
        pending: null,
        runError: s.pending ? 'the connection dropped before the server answered' : s.runError,
      };
    });
  },
});
