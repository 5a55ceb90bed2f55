// A talk in chapters, for presenter mode: each scenario in catalogue order, then its broken
// variant run, then its correct variant run, then (a workshop's step) its exercise where it
// has one. → and ← step through them. Pure: where the page is now is read from the
// selection, whether a run is on screen and whether an exercise is open, never kept twice.
import type { ScenarioManifest } from '@racelab/shared';

export type ChapterKind = 'scenario' | 'broken' | 'correct' | 'exercise';

/** A scenario's exercise as a chapter needs it: the broken variant it starts from. */
export interface ChapterExercise {
  scenario: string;
  from: string;
}

export interface Chapter {
  scenario: string;
  /** The variant selected in this chapter (the broken one in the scenario's own chapter, the starting one in an exercise). */
  variant: string;
  kind: ChapterKind;
}

/**
 * An exercise step is valid only for a scenario of the catalogue whose exercise starts from
 * one of its broken variants: anything else (a scenario the server does not list, a start
 * that is not broken) is no chapter, so that a talk never steps into an exercise it cannot open.
 */
export function exerciseChapter(scenario: ScenarioManifest, exercises: readonly ChapterExercise[]): Chapter | null {
  const exercise = exercises.find((e) => e.scenario === scenario.id);
  const from = exercise && scenario.variants.find((v) => v.id === exercise.from);
  return from && !from.correct ? { scenario: scenario.id, variant: from.id, kind: 'exercise' } : null;
}

/** Every chapter of a catalogue: scenario → first broken variant → first correct variant → its exercise, if any. */
export function chaptersOf(catalog: readonly ScenarioManifest[], exercises: readonly ChapterExercise[] = []): Chapter[] {
  const out: Chapter[] = [];
  for (const s of catalog) {
    const broken = s.variants.find((v) => !v.correct);
    const correct = s.variants.find((v) => v.correct);
    const first = broken ?? correct;
    if (!first) continue;
    out.push({ scenario: s.id, variant: first.id, kind: 'scenario' });
    if (broken) out.push({ scenario: s.id, variant: broken.id, kind: 'broken' });
    if (correct) out.push({ scenario: s.id, variant: correct.id, kind: 'correct' });
    const exercise = exerciseChapter(s, exercises);
    if (exercise) out.push(exercise);
  }
  return out;
}

export interface Here {
  scenario: string | null;
  variant: string | null;
  /** Nothing on screen and nothing asked for: the scenario's own chapter. */
  blank: boolean;
  /** The scenario's exercise is open. */
  exercise?: boolean;
}

/**
 * The chapter the page is at: an exact match, else the scenario's own chapter (a variant
 * chosen by hand counts as being in its scenario); -1 when the scenario is not listed.
 */
export function chapterIndex(chapters: readonly Chapter[], here: Here): number {
  if (here.exercise) {
    const open = chapters.findIndex((c) => c.scenario === here.scenario && c.kind === 'exercise');
    if (open >= 0) return open;
  }
  const exact = chapters.findIndex(
    (c) => c.scenario === here.scenario && c.variant === here.variant && c.kind !== 'exercise' && (c.kind === 'scenario') === here.blank,
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
  if (c.kind === 'scenario') return 'the scenario';
  return c.kind === 'exercise' ? 'exercise: fix it yourself' : `${c.kind}: ${c.variant}`;
}
