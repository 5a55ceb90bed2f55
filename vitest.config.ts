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

// The files that take minutes, longest first (seconds of their own in a full run on a quiet
// machine, 2026-12-07, before the exercises' catalogue graded its solutions at two sets, not
// every set). Vitest orders by the durations it remembers, and on a clean clone, which
// remembers none, by file size: these small files of many long runs then started last and
// the suite waited on them alone (the exercises' catalogue from 1,018 s to 1,360 s of 1,392;
// the explore tests took the last 280 s of 1,904).
const LONGEST_FIRST = [
  'server/src/exercises/exerciseCatalog.test.ts', // 450
  'server/src/scenarios/duplicate-job/duplicateJob.explore.test.ts', // 212
  'server/src/exercises/grade.test.ts', // 165
  'server/src/labnet/realFaults.test.ts', // 138
  'server/src/scenarios/catalog.test.ts', // 130
  'server/src/scenarios/mutants.test.ts', // 113
  'server/src/scenarios/fence-check/fenceCheck.explore.test.ts', // 111
  'server/src/workshop/lostServer.test.ts', // 87
  'server/src/scenarios/redlock/isolateNode.test.ts', // 76
  'server/src/scenarios/cron-every-replica/cronEveryReplica.params.test.ts', // 75
  'server/src/scenarios/lost-update/lostUpdate.explore.test.ts', // 63
  'server/src/explore/lockExplore.test.ts', // 62
  'server/src/scenarios/fencing/fencing.explore.test.ts', // 61
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
