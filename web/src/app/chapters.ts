// A talk in chapters, for presenter mode: each scenario in catalogue order, then its broken
// variant run, then its correct variant run. → and ← step through them. Pure: where the
// page is now is read from the selection and whether a run is on screen, never kept twice.
import type { ScenarioManifest } from '@racelab/shared';

export type ChapterKind = 'scenario' | 'broken' | 'correct';

export interface Chapter {
  scenario: string;
  /** The variant selected in this chapter (the broken one in the scenario's own chapter). */
  variant: string;
  kind: ChapterKind;
}

/** Every chapter of a catalogue: scenario → first broken variant → first correct variant. */
export function chaptersOf(catalog: readonly ScenarioManifest[]): Chapter[] {
  const out: Chapter[] = [];
  for (const s of catalog) {
    const broken = s.variants.find((v) => !v.correct);
    const correct = s.variants.find((v) => v.correct);
    const first = broken ?? correct;
    if (!first) continue;
    out.push({ scenario: s.id, variant: first.id, kind: 'scenario' });
    if (broken) out.push({ scenario: s.id, variant: broken.id, kind: 'broken' });
    if (correct) out.push({ scenario: s.id, variant: correct.id, kind: 'correct' });
  }
  return out;
}

export interface Here {
  scenario: string | null;
  variant: string | null;
  /** Nothing on screen and nothing asked for: the scenario's own chapter. */
  blank: boolean;
}

/**
 * The chapter the page is at: an exact match, else the scenario's own chapter (a variant
 * chosen by hand counts as being in its scenario); -1 when the scenario is not listed.
 */
export function chapterIndex(chapters: readonly Chapter[], here: Here): number {
  const exact = chapters.findIndex(
    (c) => c.scenario === here.scenario && c.variant === here.variant && (c.kind === 'scenario') === here.blank,
  );
  if (exact >= 0) return exact;
  return chapters.findIndex((c) => c.scenario === here.scenario && c.kind === 'scenario');
}

/** The chapter one step away, or null at either end. */
export function stepChapter(chapters: readonly Chapter[], here: Here, step: 1 | -1): Chapter | null {
  const i = chapterIndex(chapters, here);
  const next = i < 0 ? (step > 0 ? 0 : -1) : i + step;
  return chapters[next] ?? null;
}

/** "broken: no-lock" — how the stage names a chapter. */
export function chapterWords(c: Chapter): string {
  return c.kind === 'scenario' ? 'the scenario' : `${c.kind}: ${c.variant}`;
}
