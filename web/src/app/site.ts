// The static site's way to get events: no socket; the catalog from the file the site's
// builder wrote, and each scenario's recordings fetched when it is opened, not before.
import { SiteCatalog } from '@racelab/shared';
import { recordingFor, siteChapters, withCodeOf, type SiteChapter } from '../model/siteChapters.js';
import { readSetup } from '../model/urlState.js';
import type { AppStore, State } from '../store/index.js';
import { selectCurrentRun } from '../store/selectors.js';
import { fetchShipped, openRecordingText } from './recordings.js';

export type LoadedSite = { ok: true; chapters: SiteChapter[] } | { ok: false; error: string };

async function loadSiteCatalog(url: string): Promise<LoadedSite> {
  try {
    const response = await fetch(url);
    if (!response.ok) return { ok: false, error: `HTTP ${response.status} for ${url}` };
    const parsed = SiteCatalog.safeParse(await response.json());
    if (!parsed.success) return { ok: false, error: `not a racelab site catalog (${parsed.error.issues[0]?.path.join('.') ?? ''})` };
    return { ok: true, chapters: siteChapters(parsed.data) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Starts the page as the site: the catalog loaded into the store
 * (a link's scenario and variant are restored then), and, unless the link names a recording
 * or the scorecard, the recording of the selected scenario (or of the first) opened.
 */
export function startSite(store: AppStore, catalogUrl: string, search: string): Promise<LoadedSite> {
  const initial = readSetup(search);
  return loadSiteCatalog(catalogUrl).then((loaded) => {
    if (!loaded.ok) {
      store.getState().setNotice(`The site's catalog did not load: ${loaded.error}`);
      return loaded;
    }
    store.getState().setCatalog(loaded.chapters.map((c) => c.scenario));
    fillCodeFromRecordings(store);
    if (!initial.replay && !initial.scorecard) {
      const { scenarioId, variantId } = store.getState();
      void openOnSite(store, loaded.chapters, scenarioId, variantId);
    }
    return loaded;
  });
}

/** Whenever a recording comes on screen (a scenario's, a scorecard cell's), its variants' code goes into the catalog. */
function fillCodeFromRecordings(store: AppStore): void {
  const fill = (s: State) => {
    const manifest = selectCurrentRun(s)?.manifest;
    if (!manifest || !s.catalog) return;
    const filled = withCodeOf(s.catalog, manifest);
    if (filled !== s.catalog) s.setCatalog([...filled]);
  };
  store.subscribe(fill);
  fill(store.getState());
}

/** Counts the openings: only the last one asked for comes on screen. */
let opening = 0;

/** Shows a scenario and fetches its recording (the variant's, else its first); the error in words, or null. */
export async function openOnSite(
  store: AppStore,
  chapters: readonly SiteChapter[],
  scenarioId: string | null,
  variantId: string | null,
): Promise<string | null> {
  const ticket = ++opening;
  const recording = recordingFor(chapters, scenarioId, variantId);
  const actions = store.getState();
  if (scenarioId !== null && scenarioId !== actions.scenarioId) actions.selectScenario(scenarioId);
  // The stage shows the scenario chosen, not the last one's run, while its recording comes.
  if (selectCurrentRun(actions)?.file !== recording?.file) actions.clearShown();
  if (!recording) return null;
  const fetched = await fetchShipped(recording.file);
  if (ticket !== opening) return null;
  const error = fetched.ok ? openRecordingText(store, fetched.text, fetched.name) : fetched.error;
  if (error) store.getState().setNotice(`The recording did not open: ${error}`);
  return error;
}
