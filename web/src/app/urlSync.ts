// Keeps the page's URL in step with the setup, and restores the setup from the URL it was
// opened with (once the catalog arrives, or at once for presenter mode, theme and a
// shipped recording). Restoring never runs anything.
import { defaultParams, formatParam } from '@racelab/shared';
import { samePlan } from '../model/faultPlan.js';
import { readSetup, writeSetup, type UrlSetup } from '../model/urlState.js';
import type { AppStore, State } from '../store/index.js';
import { selectCurrentRun, selectScenario, selectVariant } from '../store/selectors.js';
import { openShipped } from './recordings.js';

/** The setup worth putting in a link: what differs from the variant's defaults. */
export function setupOf(s: State): UrlSetup {
  const scenario = selectScenario(s);
  const variant = selectVariant(s);
  const setup: UrlSetup = { params: {} };
  const run = selectCurrentRun(s);
  if (run?.file && run.source !== 'live') setup.replay = run.file;
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
  }
  if (s.speed !== 1) setup.speed = s.speed;
  if (s.presenter) setup.presenter = true;
  if (s.theme === 'light') setup.theme = 'light';
  if (s.scorecard) setup.scorecard = true;
  return setup;
}

export function startUrlSync(store: AppStore, location: Location = window.location, history: History = window.history): () => void {
  const initial = readSetup(location.search);
  const actions = store.getState();
  if (initial.presenter) actions.setPresenter(true);
  if (initial.theme) actions.setTheme(initial.theme);
  if (initial.scorecard) actions.setScorecard(true);
  let restored = false;
  if (initial.replay) {
    void openShipped(store, initial.replay).then((error) => {
      if (error) store.getState().setNotice(`The recording did not open: ${error}`);
    });
  }
  let written = location.search;
  let moved = false; // something was shown or the scorecard toggled: the link follows from then on
  const sync = (s: State) => {
    if (!restored && s.catalog) {
      restored = true;
      if (initial.scenario) s.applySetup(initial);
      return; // applySetup calls back here with the restored state
    }
    // Nothing to say yet: keep the link as it came (the scorecard opens or closes with no catalog too).
    if (!restored && !moved && s.shown.length === 0 && s.scorecard === (initial.scorecard ?? false)) return;
    moved = true;
    const search = writeSetup(setupOf(s));
    if (search === written) return;
    written = search;
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  };
  const unsubscribe = store.subscribe(sync);
  sync(store.getState());
  return unsubscribe;
}
