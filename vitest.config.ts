import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// `npm test` proves each part at its defaults; `npm run test:full` (RACELAB_SUITE=full, what
// CI runs) adds the tests that prove the same parts across a matrix. Nothing is skipped:
// a file below is simply not part of the quick suite, for the reason beside it.
const FULL_ONLY = [
  // Every scenario across its parameters and declared sets (each scenario's defaults stay quick),
  // and every variant of the catalog at once, the lock libraries' too, with its leases' clocks.
  '**/*.params.test.ts',
  'server/src/scenarios/catalog.test.ts',
  'server/src/testing/fixtures/scenarios/tally/tally.test.ts',
  // Every near-miss of every correct variant, at the declared set where it fails.
  'server/src/scenarios/mutants.test.ts',
  'server/src/scenarios/duplicate-job/failingFetch.test.ts',
  // Every scenario's exercise graded as a learner's code: its solution, its broken start, a near-miss.
  'server/src/exercises/exerciseCatalog.test.ts',
  // Real partitions, real clocks and slowed nodes: the lab's mechanisms and every scenario's lab.
  'server/src/labnet/**/*.test.ts',
  'server/src/scenarios/redlock/isolateNode.test.ts',
  'server/src/scenarios/redlock/slowNode.test.ts',
  // The lock libraries under the scenarios' faults, the scorecard's runner, and a user's own
  // lock checked against the same faults (from the command line and from the page).
  'server/src/scenarios/labLibraryVariants.test.ts',
  'server/src/scenarios/ledgerLibraryVariants.test.ts',
  'server/src/scorecard/scorecard.test.ts',
  'server/src/scorecard/check.test.ts',
  'server/src/http/ownLockCheck.test.ts',
  // Searches over schedules that place faults: dozens of real runs each; and each scenario's
  // variants and near-misses explored from their defaults, as `npm run explore -- --all` does.
  'server/src/explore/explorerFaults.test.ts',
  '**/*.explore.test.ts',
  'server/src/explore/lockExplore.test.ts',
  'server/src/explore/exerciseExplore.test.ts',
  // Crowds and hostile input at volume, and a room of 30 attendees losing one of its three servers.
  'server/src/http/crowd.test.ts',
  'server/src/workshop/lostServer.test.ts',
  'tools/src/fuzzer.test.ts',
];
const full = process.env.RACELAB_SUITE === 'full';

// The files that take minutes, longest first (seconds of their own in a quiet full run,
// 2026-12-05). Vitest orders by the durations it remembers, and on a clean clone, which
// remembers none, by file size: these small files of many long runs then started last and
// the suite waited on them alone (the exercises' catalogue from 1,018 s to 1,360 s of 1,392).
const LONGEST_FIRST = [
  'server/src/exercises/exerciseCatalog.test.ts', // 343
  'server/src/exercises/grade.test.ts', // 106
  'server/src/workshop/lostServer.test.ts', // 99
  'server/src/labnet/realFaults.test.ts', // 96
  'server/src/scenarios/catalog.test.ts', // 87
  'server/src/scenarios/mutants.test.ts', // 84
  'server/src/exercises/exerciseCli.test.ts', // 71
  'server/src/scenarios/redlock/isolateNode.test.ts', // 70
  'server/src/scenarios/token-stampede/tokenStampede.params.test.ts', // 64
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['**/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', ...(full ? [] : FULL_ONLY)],
    // Workers are forked from the built JavaScript: build it before any test runs.
    globalSetup: ['./server/src/testing/buildWorkers.ts'],
    testTimeout: 60000,
    hookTimeout: 60000,
    pool: 'forks',
    // Two test files at a time on a 2-core machine (the default would be one): most of a
    // scenario test is waiting on its choreography (stalls, leases, latches), not computing.
    maxWorkers: 2,
    // Tests marked concurrent (the CLI's, the near-misses) run three at a time within their file.
    maxConcurrency: 3,
    sequence: { sequencer: LongestFirst },
  },
});
