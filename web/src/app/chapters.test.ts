import type { ScenarioManifest } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { chapterIndex, chaptersOf, chapterWords, stepChapter } from './chapters.js';

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
});
