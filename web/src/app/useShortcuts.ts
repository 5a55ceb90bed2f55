// The page's keyboard shortcuts (see shortcutTable): one keydown listener on the window.
// Keys typed into a text field, a number field or a select stay there.
import { useEffect } from 'react';
import { cursorAt } from '../model/cursor.js';
import { deriveLanes } from '../model/lanes.js';
import { momentsOf, stepMoment } from '../model/playhead.js';
import { runSummary } from '../model/runSummary.js';
import { SPEEDS } from '../model/urlState.js';
import { replayShown } from '../replay/player.js';
import { useStore } from '../store/index.js';
import { counterpartOf } from '../store/runsSlice.js';
import {
  selectChapterExercises,
  selectCurrentRun,
  selectReplaying,
  selectRunInProgress,
  selectScenario,
  selectVariant,
  takesFaults,
} from '../store/selectors.js';
import { fitView, panFraction, setPlayhead, zoomBy } from '../view/viewActions.js';
import { viewStore } from '../view/viewStore.js';
import { OPEN_RECORDING_ID } from '../components/sharing/RecordingControls.js';
import { chaptersOf, stepChapter } from './chapters.js';
import { matchShortcut, type Match } from './shortcutTable.js';

const TEXT_ENTRY = 'textarea, select, [contenteditable="true"], input:not([type="radio"]):not([type="checkbox"]):not([type="button"])';

function cycle<T>(items: readonly T[], current: T | undefined, step: number): T | undefined {
  if (items.length === 0) return undefined;
  const i = current === undefined ? -1 : items.indexOf(current);
  return items[(i + step + items.length) % items.length];
}

/** Worker n of the top live run in progress, with whether the page has it paused. */
function workerN(n: number): { runId: string; workerId: string; paused: boolean } | null {
  const s = useStore.getState();
  const run = s.shown.map((id) => s.runs[id]).find(takesFaults);
  const workerId = run ? runSummary(run.events).workers[n - 1] : undefined;
  if (!run || !workerId) return null;
  const lane = deriveLanes(run.events).find((l) => l.workerId === workerId);
  return { runId: run.runId, workerId, paused: !!lane?.spans.some((sp) => sp.kind === 'stall' && sp.byPage && sp.endMs === null) };
}

/**
 * Presenter mode's next (or previous) chapter: the scenario alone, then its broken variant
 * run, then its correct one. Not while a run is in progress: the audience watches it end.
 */
export function goToChapter(step: 1 | -1): boolean {
  const s = useStore.getState();
  if (!s.catalog || selectRunInProgress(s)) return false;
  const here = { scenario: s.scenarioId, variant: s.variantId, blank: s.shown.length === 0, exercise: s.exercise !== null };
  const next = stepChapter(chaptersOf(s.catalog, selectChapterExercises(s)), here, step);
  if (!next) return false;
  // An exercise step opens the exercise and runs nothing: the room edits the code first.
  if (next.kind === 'exercise') return (s.openExercise(next.scenario), true);
  if (s.exercise !== null) s.openExercise(null);
  if (next.scenario !== s.scenarioId) s.selectScenario(next.scenario);
  if (next.variant !== useStore.getState().variantId) s.selectVariant(next.variant);
  if (next.kind === 'scenario') useStore.getState().clearShown();
  else useStore.getState().startRun();
  return true;
}

/** Does what a shortcut asks; false when it does not apply now. */
export function perform(m: Match): boolean {
  const s = useStore.getState();
  const scenario = selectScenario(s);
  const variant = selectVariant(s);
  switch (m.id) {
    case 'run':
      return s.startRun();
    case 'compare':
      return s.startCompare();
    case 'cancel':
      s.cancelRun();
      return true;
    case 'replay': {
      // Space again pauses a replay (the cursor is held where it is); once more goes on.
      if (s.cursor.mode === 'replay' && selectReplaying(s)) return (s.setCursor({ mode: 'held', atMs: s.cursor.atMs }), true);
      if (!selectCurrentRun(s) || selectRunInProgress(s)) return false;
      return replayShown(useStore, s.speed, cursorAt(s.cursor) ?? 0) !== null;
    }
    case 'slower':
    case 'faster': {
      const i = SPEEDS.indexOf(s.speed as (typeof SPEEDS)[number]);
      const next = SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, (i < 0 ? 3 : i) + (m.id === 'faster' ? 1 : -1)))]!;
      s.setSpeed(next);
      return true;
    }
    case 'next-scenario':
    case 'previous-scenario': {
      const next = cycle(s.catalog?.map((c) => c.id) ?? [], s.scenarioId ?? undefined, m.id === 'next-scenario' ? 1 : -1);
      if (next) s.selectScenario(next);
      return !!next;
    }
    case 'toggle-variant': {
      const other = scenario && variant ? counterpartOf(scenario, variant, s.compareWith) : undefined;
      if (!other || !variant) return false;
      s.selectVariant(other.id);
      s.setCompareWith(variant.id); // V again comes back
      return true;
    }
    case 'next-variant':
    case 'previous-variant': {
      const next = cycle(scenario?.variants.map((v) => v.id) ?? [], s.variantId ?? undefined, m.id === 'next-variant' ? 1 : -1);
      if (next) s.selectVariant(next);
      return !!next;
    }
    case 'pause-worker':
    case 'kill-worker': {
      const w = workerN(m.worker ?? 0);
      if (!w) return false;
      return s.sendFault(w.runId, w.workerId, m.id === 'kill-worker' ? 'kill' : w.paused ? 'resume' : 'pause');
    }
    case 'step-forward':
    case 'step-back': {
      const run = selectCurrentRun(s);
      if (!run) return false;
      setPlayhead(stepMoment(momentsOf(run.events), cursorAt(s.cursor), m.id === 'step-forward' ? 1 : -1));
      return true;
    }
    case 'clear-playhead':
      if (s.helpOpen) s.setHelpOpen(false);
      else setPlayhead(null);
      return true;
    case 'zoom-in':
      zoomBy(2);
      return true;
    case 'zoom-out':
      zoomBy(0.5);
      return true;
    case 'fit':
      fitView();
      return true;
    case 'pan-left':
    case 'pan-right':
      panFraction(m.id === 'pan-left' ? -0.25 : 0.25);
      return true;
    case 'follow':
      viewStore.getState().setFollow(!viewStore.getState().follow);
      return true;
    case 'open-recording':
      document.getElementById(OPEN_RECORDING_ID)?.click();
      return true;
    case 'presenter':
      s.setPresenter(!s.presenter);
      return true;
    case 'theme':
      s.setTheme(s.theme === 'dark' ? 'light' : 'dark');
      return true;
    case 'contrast':
      s.setTheme(s.theme === 'contrast' ? 'dark' : 'contrast');
      return true;
    case 'next-chapter':
    case 'previous-chapter':
      return goToChapter(m.id === 'next-chapter' ? 1 : -1);
    case 'help':
      s.setHelpOpen(!s.helpOpen);
      return true;
  }
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest(TEXT_ENTRY) && e.key !== 'Escape') return;
      // Space and Enter on a button or a radio do what they always do; arrows move radios.
      if ((e.key === ' ' || e.key === 'Enter') && target?.closest('button, a, input, summary')) return;
      if (e.key.startsWith('Arrow') && target?.closest('input, [role="radiogroup"]')) return;
      // In the dialog only Escape and ? act.
      if (useStore.getState().helpOpen && e.key !== 'Escape' && e.key !== '?') return;
      const match = matchShortcut(e, { presenter: useStore.getState().presenter });
      if (match && perform(match)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
