import type { ScenarioManifest } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { chapterIndex, chaptersOf, chapterWords, exerciseChapter, stepChapter } from './chapters.js';

const scenario = (id: string, variants: [string, boolean][]) =>
  ({ id, variants: variants.map(([vid, correct]) => ({ id: vid, correct })) }) as unknown as ScenarioManifest;

const catalog = [
  scenario('duplicate-job', [
    ['no-lock', false],
    ['blind-del', false],
    ['token-lua', true],
  ]),
  scenario('only-correct', [['safe', true]]),
  scenario('fencing', [
    ['lease-only', false],
    ['fenced', true],
  ]),
];

describe('chapters', () => {
  const chapters = chaptersOf(catalog);

  it('lists each scenario, then its first broken and first correct variant, in catalogue order', () => {
    expect(chapters.map((c) => `${c.scenario}/${c.variant}/${c.kind}`)).toEqual([
      'duplicate-job/no-lock/scenario',
      'duplicate-job/no-lock/broken',
      'duplicate-job/token-lua/correct',
      'only-correct/safe/scenario',
      'only-correct/safe/correct',
      'fencing/lease-only/scenario',
      'fencing/lease-only/broken',
      'fencing/fenced/correct',
    ]);
  });

  it('reads where the page is from the selection and whether a run is on screen', () => {
    expect(chapterIndex(chapters, { scenario: 'duplicate-job', variant: 'no-lock', blank: true })).toBe(0);
    expect(chapterIndex(chapters, { scenario: 'duplicate-job', variant: 'no-lock', blank: false })).toBe(1);
    expect(chapterIndex(chapters, { scenario: 'duplicate-job', variant: 'token-lua', blank: false })).toBe(2);
    // A variant chosen by hand: the page is in its scenario's own chapter.
    expect(chapterIndex(chapters, { scenario: 'duplicate-job', variant: 'blind-del', blank: false })).toBe(0);
    expect(chapterIndex(chapters, { scenario: 'nowhere', variant: null, blank: true })).toBe(-1);
  });

  it('steps forward and back, and stops at both ends', () => {
    const at = (scenario: string, variant: string, blank: boolean) => ({ scenario, variant, blank });
    expect(stepChapter(chapters, at('duplicate-job', 'no-lock', true), 1)).toEqual(chapters[1]);
    expect(stepChapter(chapters, at('duplicate-job', 'token-lua', false), 1)).toEqual(chapters[3]);
    expect(stepChapter(chapters, at('only-correct', 'safe', true), -1)).toEqual(chapters[2]);
    expect(stepChapter(chapters, at('duplicate-job', 'no-lock', true), -1)).toBeNull();
    expect(stepChapter(chapters, at('fencing', 'fenced', false), 1)).toBeNull();
    expect(stepChapter(chapters, { scenario: null, variant: null, blank: true }, 1)).toEqual(chapters[0]);
  });

  it('names a chapter in words', () => {
    expect(chapters.map(chapterWords).slice(0, 3)).toEqual(['the scenario', 'broken: no-lock', 'correct: token-lua']);
  });

  describe('exercise steps', () => {
    const exercises = [
      { scenario: 'duplicate-job', from: 'blind-del' },
      { scenario: 'fencing', from: 'lease-only' },
      { scenario: 'only-correct', from: 'safe' }, // starts from a correct variant: no step
      { scenario: 'not-in-the-catalogue', from: 'x' },
    ];
    const withExercises = chaptersOf(catalog, exercises);

    it('follow a scenario’s correct run, for the scenarios whose exercise starts from a broken variant', () => {
      expect(withExercises.map((c) => `${c.scenario}/${c.variant}/${c.kind}`)).toEqual([
        'duplicate-job/no-lock/scenario',
        'duplicate-job/no-lock/broken',
        'duplicate-job/token-lua/correct',
        'duplicate-job/blind-del/exercise',
        'only-correct/safe/scenario',
        'only-correct/safe/correct',
        'fencing/lease-only/scenario',
        'fencing/lease-only/broken',
        'fencing/fenced/correct',
        'fencing/lease-only/exercise',
      ]);
      expect(withExercises.filter((c) => c.kind !== 'exercise')).toEqual(chapters);
    });

    it('are valid only where the exercise’s start is a broken variant of that scenario', () => {
      const [dup, only] = catalog;
      if (!dup || !only) throw new Error('catalog');
      expect(exerciseChapter(dup, [{ scenario: 'duplicate-job', from: 'no-such-variant' }])).toBeNull();
      expect(exerciseChapter(dup, [{ scenario: 'duplicate-job', from: 'token-lua' }])).toBeNull();
      expect(exerciseChapter(only, exercises)).toBeNull();
      expect(exerciseChapter(dup, [])).toBeNull();
      expect(exerciseChapter(dup, exercises)).toEqual({ scenario: 'duplicate-job', variant: 'blind-del', kind: 'exercise' });
    });

    it('are where the page is while the exercise is open, whatever runs on screen', () => {
      const open = { scenario: 'duplicate-job', variant: 'blind-del', blank: false, exercise: true };
      expect(chapterIndex(withExercises, open)).toBe(3);
      expect(chapterIndex(withExercises, { ...open, blank: true })).toBe(3);
      // The exercise's starting variant run with the exercise closed is not the exercise step.
      expect(chapterIndex(withExercises, { ...open, exercise: false })).toBe(0);
      // No exercise step for the scenario: the open exercise counts as its scenario's chapter.
      expect(chapterIndex(chapters, { scenario: 'duplicate-job', variant: 'blind-del', blank: true, exercise: true })).toBe(0);
      expect(stepChapter(withExercises, open, 1)).toEqual(withExercises[4]);
      expect(stepChapter(withExercises, { scenario: 'duplicate-job', variant: 'token-lua', blank: false }, 1)).toEqual(withExercises[3]);
      expect(chapterWords(withExercises[3] as (typeof withExercises)[number])).toBe('exercise: fix it yourself');
    });
  });
});
