// What the embed tells its host page, read from the store as it changes: where the playhead
// is (throttled), the verdict once the playhead reaches the run's end, and that a run played
// to its end. Reports are facts of the one cursor and the one log, never of a clock of its own.
import { CURSOR_REPORT_MS, EMBED_PROTOCOL_VERSION, type EmbedReport, type RunEvent } from '@racelab/shared';
import { cursorAt, logEndMs, shownLog } from '../model/cursor.js';
import { deriveVerdict } from '../model/verdict.js';
import type { AppStore, State } from '../store/index.js';
import { isRunning, scenarioOfRun, selectCurrentRun, selectReplaying } from '../store/selectors.js';
import type { RunRecord } from '../store/types.js';

type Shown = Extract<EmbedReport, { type: 'ready' }>['shown'];

/** The run on screen as the protocol names it. */
export function shownOf(run: RunRecord | undefined): Shown {
  if (!run || !run.scenario) return null;
  return { scenario: run.scenario, variant: run.variant, recording: run.file, runId: run.source === 'live' ? run.runId : null };
}

/** Where the playhead is, where the run ends, and whether it moves by itself (a replay, or a live run followed). */
export function playheadOf(s: State): { ms: number; endMs: number; playing: boolean } | null {
  const run = selectCurrentRun(s);
  if (!run || run.events.length === 0) return null;
  const endMs = logEndMs(run.events);
  const playing = selectReplaying(s) || (s.cursor.mode === 'live' && isRunning(run));
  return { ms: Math.min(endMs, cursorAt(s.cursor) ?? endMs), endMs, playing };
}

export interface ReporterDeps {
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
}

/**
 * Sends `ready` (at once, or with `awaitRun` once a run is on screen with its events, or a
 * notice says it did not open), then cursor, verdict and ended reports as the store changes;
 * returns the stop.
 */
export function startReports(store: AppStore, post: (report: EmbedReport) => void, deps: ReporterDeps = {}, awaitRun = false): () => void {
  const now = deps.now ?? (() => performance.now());
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  const racelab = EMBED_PROTOCOL_VERSION;
  let sentCursor = '';
  let sentAt = Number.NEGATIVE_INFINITY;
  let trailing: unknown = null;
  let verdictLog: readonly RunEvent[] | null = null;
  let verdictShown = false;
  let wasPlaying = false;

  const keyOf = (at: ReturnType<typeof playheadOf>) => (at ? `${at.ms} ${at.endMs} ${at.playing}` : '');
  const sendCursor = () => {
    trailing = null;
    const at = playheadOf(store.getState());
    const key = keyOf(at);
    if (!at || key === sentCursor) return;
    sentCursor = key;
    sentAt = now();
    post({ racelab, type: 'cursor', ms: at.ms, endMs: at.endMs, playing: at.playing });
  };
  // At most one report every CURSOR_REPORT_MS, and always the last position.
  const cursor = (s: State) => {
    if (trailing !== null || keyOf(playheadOf(s)) === sentCursor) return;
    const wait = sentAt + CURSOR_REPORT_MS - now();
    if (wait <= 0) sendCursor();
    else trailing = setTimer(sendCursor, wait);
  };

  const verdict = (s: State) => {
    const run = selectCurrentRun(s);
    const log = run ? shownLog(run.events, s.cursor) : null;
    if (log === verdictLog) return;
    verdictLog = log;
    const view = run && log ? deriveVerdict(log, scenarioOfRun(s, run)) : null;
    const finished = view?.state === 'finished';
    if (finished && !verdictShown) {
      const shown = shownOf(run);
      if (shown) post({ racelab, type: 'verdict', ...shown, pass: view.pass, headline: view.headline });
    }
    verdictShown = finished;
  };

  const ended = (s: State) => {
    const at = playheadOf(s);
    const playing = at?.playing ?? false;
    if (wasPlaying && !playing && at && at.ms >= at.endMs) {
      // Its last position first: a host's progress bar reaches the end before `ended`.
      if (trailing !== null) clearTimer(trailing);
      sendCursor();
      post({ racelab, type: 'ended', ms: at.ms });
    }
    wasPlaying = playing;
  };

  let ready = false;
  const onChange = (s: State) => {
    if (!ready) {
      if (awaitRun && !s.notice && !(selectCurrentRun(s)?.events.length ?? 0)) return;
      ready = true;
      post({ racelab, type: 'ready', shown: shownOf(selectCurrentRun(s)) });
    }
    cursor(s);
    verdict(s);
    ended(s);
  };
  const unsubscribe = store.subscribe(onChange);
  onChange(store.getState());
  return () => {
    unsubscribe();
    if (trailing !== null) clearTimer(trailing);
  };
}
