// Keeps the page's URL in step with the setup, and restores the setup from the URL it was
// opened with (once the catalog arrives, or at once for presenter mode, theme, a shipped
// recording and a linked live run). Restoring never runs anything: a chapter's link opens
// the chapter's recording where one is shipped, and a link's moment (`t=`, `event=`) puts
// the playhead there once its run is on screen (./moment.ts).
import { defaultParams, formatParam } from '@racelab/shared';
import { cursorAt } from '../model/cursor.js';
import { samePlan } from '../model/faultPlan.js';
import { readSetup, writeSetup, type UrlSetup } from '../model/urlState.js';
import type { AppStore, State } from '../store/index.js';
import { selectChapterExercises, selectCurrentRun, selectScenario, selectVariant } from '../store/selectors.js';
import { chapterIndex, chaptersOf } from './chapters.js';
import { applyMomentWhenShown } from './moment.js';
import { listShipped, openShipped } from './recordings.js';

/** The setup worth putting in a link: what differs from the variant's defaults, and the moment on screen. */
export function setupOf(s: State): UrlSetup {
  const scenario = selectScenario(s);
  const variant = selectVariant(s);
  const setup: UrlSetup = { params: {} };
  const run = selectCurrentRun(s);
  if (run?.file && run.source !== 'live') setup.replay = run.file;
  // A live run the server keeps: the link shows it again (with no control of it).
  if (run?.source === 'live') setup.run = run.runId;
  if (scenario && variant) {
    setup.scenario = scenario.id;
    setup.variant = variant.id;
    const defaults = defaultParams(scenario, variant.id);
    for (const spec of scenario.params) {
      const text = s.paramInputs[spec.name];
      const base = defaults[spec.name];
      if (text !== undefined && (base === undefined || text !== formatParam(base))) setup.params[spec.name] = text;
    }
    if (!samePlan(s.faults, variant.faults)) setup.faults = s.faults;
    if (s.compareWith) setup.compare = s.compareWith;
    if (s.schedule) setup.schedule = s.schedule;
  }
  if (s.speed !== 1) setup.speed = s.speed;
  if (s.presenter) setup.presenter = true;
  if (s.workshop) setup.workshop = true;
  if (s.presenter && s.catalog) {
    const here = { scenario: s.scenarioId, variant: s.variantId, blank: s.shown.length === 0, exercise: s.exercise !== null };
    const i = chapterIndex(chaptersOf(s.catalog, selectChapterExercises(s)), here);
    if (i >= 0) setup.chapter = i + 1;
  }
  if (s.theme === 'light') setup.theme = 'light';
  if (s.scorecard) setup.scorecard = true;
  if (s.exercise !== null) setup.exercise = s.exercise;
  // A held playhead is a moment worth a link; a replay's moving one is not written 60 times a second.
  if (run && s.cursor.mode === 'held') setup.t = Math.round(cursorAt(s.cursor) ?? 0);
  if (run && s.selectedEvent !== null) setup.event = s.selectedEvent;
  return setup;
}

/** Opens what a link names to show: a shipped recording or a live run, each with its moment. */
function openLinked(store: AppStore, initial: UrlSetup): void {
  const moment = { t: initial.t, event: initial.event };
  if (initial.replay) {
    const file = initial.replay;
    applyMomentWhenShown(store, moment, (run) => run.file === file);
    void openShipped(store, file).then((error) => {
      if (error) store.getState().setNotice(`The recording did not open: ${error}`);
    });
  } else if (initial.run) {
    const runId = initial.run;
    applyMomentWhenShown(store, moment, (run) => run.runId === runId);
    store.getState().openLinkedRun(runId);
  }
}

/** A chapter's link: its scenario and variant, and for a run's chapter the shipped recording of that run, if any. */
function restoreChapter(store: AppStore, initial: UrlSetup): UrlSetup {
  const catalog = store.getState().catalog ?? [];
  const chapter =
    initial.chapter === undefined ? undefined : chaptersOf(catalog, selectChapterExercises(store.getState()))[initial.chapter - 1];
  if (!chapter) return initial;
  if (chapter.kind === 'exercise') return { ...initial, scenario: chapter.scenario, variant: chapter.variant, exercise: chapter.scenario };
  if (chapter.kind !== 'scenario' && !initial.replay && !initial.run) {
    const file = `${chapter.scenario}-${chapter.variant}.json`;
    void listShipped().then((list) => {
      if (list.some((r) => r.file === file)) void openShipped(store, file);
    });
  }
  return { ...initial, scenario: chapter.scenario, variant: chapter.variant };
}

export function startUrlSync(store: AppStore, location: Location = window.location, history: History = window.history): () => void {
  const initial = readSetup(location.search);
  const actions = store.getState();
  if (initial.presenter) actions.setPresenter(true);
  if (initial.workshop) actions.setWorkshop(true);
  if (initial.theme) actions.setTheme(initial.theme);
  if (initial.scorecard) actions.setScorecard(true);
  // The embed's own fields stay in its address as they came.
  const embedding: Partial<UrlSetup> = initial.embed ? { embed: true, ...(initial.origin ? { origin: initial.origin } : {}) } : {};
  let restored = false;
  openLinked(store, initial);
  let written = location.search;
  let moved = false; // something was shown or the scorecard toggled: the link follows from then on
  const sync = (s: State) => {
    // Chapters count exercise steps: a chapter's link is read once the server has said which exercises it has.
    if (!restored && s.catalog && s.exercises.state !== 'asking') {
      restored = true;
      const setup = restoreChapter(store, initial);
      if (setup.scenario) s.applySetup(setup);
      if (setup.exercise) store.getState().openExercise(setup.exercise);
      return; // applySetup calls back here with the restored state
    }
    // Nothing to say yet: keep the link as it came (the scorecard opens or closes with no catalog too).
    if (!restored && !moved && s.shown.length === 0 && s.scorecard === (initial.scorecard ?? false) && s.exercise === null) return;
    moved = true;
    const search = writeSetup({ ...setupOf(s), ...embedding });
    if (search === written) return;
    written = search;
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  };
  const unsubscribe = store.subscribe(sync);
  sync(store.getState());
  return unsubscribe;
}
