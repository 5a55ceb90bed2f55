// The static site's table of contents: the scenarios in teaching order (the catalog's, which
// the presenter's chapters also follow), each with the shipped recordings of its variants,
// broken ones first. Pure: from the site's catalog file and what is selected.
import type { ScenarioManifest, SiteCatalog, SiteRecording } from '@racelab/shared';

export interface SiteChapter {
  scenario: ScenarioManifest;
  /** Its shipped recordings: the broken variants' first, then the correct ones', each in the index's order. */
  recordings: SiteRecording[];
}

/** Every scenario of the site, in teaching order. */
export function siteChapters(site: SiteCatalog): SiteChapter[] {
  return site.scenarios.map((scenario) => {
    const own = site.recordings.filter((r) => r.scenario === scenario.id);
    return { scenario, recordings: [...own.filter((r) => !r.correct), ...own.filter((r) => r.correct)] };
  });
}

/**
 * The recording to show for a selection: the selected variant's, else the scenario's first
 * (a broken one), else the first scenario's first; null when there is none to show.
 */
export function recordingFor(chapters: readonly SiteChapter[], scenarioId: string | null, variantId: string | null): SiteRecording | null {
  const chapter = chapters.find((c) => c.scenario.id === scenarioId) ?? (scenarioId === null ? chapters[0] : undefined);
  if (!chapter) return null;
  return chapter.recordings.find((r) => r.variant === variantId) ?? chapter.recordings[0] ?? null;
}

/** "broken: blind-del" — how the site names a recording. */
export const recordingWords = (r: SiteRecording): string => `${r.correct ? 'correct' : 'broken'}: ${r.variant}`;

/**
 * The site's catalog leaves the variants' code to the recordings (each carries its scenario's
 * manifest): the catalog with the code of `carried`'s variants filled in where it is empty;
 * the same array when there is nothing to fill.
 */
export function withCodeOf(catalog: readonly ScenarioManifest[], carried: ScenarioManifest): readonly ScenarioManifest[] {
  const i = catalog.findIndex((s) => s.id === carried.id);
  const scenario = catalog[i];
  const codeOf = (id: string) => carried.variants.find((v) => v.id === id)?.code;
  if (!scenario?.variants.some((v) => !v.code && codeOf(v.id))) return catalog;
  const variants = scenario.variants.map((v) => (v.code ? v : { ...v, code: codeOf(v.id) ?? '' }));
  return catalog.map((s, j) => (j === i ? { ...scenario, variants } : s));
}
