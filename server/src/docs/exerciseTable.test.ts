// docs/EXERCISES.md's table says what the scenario folders say: an exercise added, a solution
// changed, a declared set or a near-miss added without `npm run docs` fails here.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../scenarios/registry.js';
import { EXERCISES, exerciseTable, gradedSets, setWords, withExercises } from './exerciseTable.js';
import { readDocument } from './generatedSection.js';

const page = readDocument(EXERCISES);
const catalog = await loadCatalog();

describe('the exercise table', () => {
  it('is up to date in docs/EXERCISES.md (run `npm run docs` after changing an exercise, a declared set or a near-miss)', () => {
    expect(withExercises(page, catalog)).toBe(page);
  });

  it('has one row per scenario in teaching order: where it starts, its solution, the sets graded and its near-misses', () => {
    const rows = exerciseTable(catalog).split('\n').slice(2);
    expect(rows.map((row) => row.split(' | ')[0])).toEqual(catalog.manifests.map((m) => `| ${m.id}`));
    expect(rows[0]).toBe(
      '| duplicate-job | `blind-del` | `token-lua` | defaults; workers=5 arrival=together; ' +
        'workers=3 arrival=late leaseMs=2000 workMs=3000 failure=first-fails; workers=3 arrival=late leaseMs=3000 workMs=100 failure=first-fails | ' +
        '`token-lua-without-nx`, `token-lua-plain-del`, `token-lua-constant-token`, `token-lua-get-then-del`, `token-lua-release-only-on-success` |',
    );
  });

  it('grades a fix only where the solution is expected to pass: a clock late by more than a slot is left out', () => {
    expect(gradedSets(catalog, 'cron-clock-skew').map(setWords)).toEqual(['defaults', 'nodes=3 skewMs=200 jobMs=300']);
    // Two containers one after the other: worker-2 fires after token-lua's lock is gone, and a lock does not remember the job ran.
    expect(gradedSets(catalog, 'duplicate-job')).not.toContainEqual({ workers: 2, arrival: 'late' });
    for (const scenario of catalog.scenarios.values()) expect(gradedSets(catalog, scenario.id)[0]).toEqual({});
  });

  it('refuses a scenario with no exercise, naming it', () => {
    const [first] = catalog.scenarios.values();
    const bare = { ...first!, exercise: undefined };
    expect(() => exerciseTable({ ...catalog, scenarios: new Map([[bare.id, bare]]) })).toThrow(`no exercise for ${bare.id}`);
  });

  it('refuses a page whose markers are missing', () => {
    expect(() => withExercises('# no table here', catalog)).toThrow('docs/EXERCISES.md has no exercises section');
  });
});
