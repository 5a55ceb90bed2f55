// event-loop-block: worker-1 holds a lease and blocks its own event loop with a long
// synchronous task — no signal stops it. The lease expires as it would under a SIGSTOP;
// worker-2 takes it and writes; worker-1 comes back and writes too. A watchdog that renews
// the lease is a timer in the blocked loop, so it helps only while the block is shorter
// than the lease.
import { leaseParam, workParam } from '../kit/leaseParams.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { handover } from './choreography.js';
import { lastHolderWins, LAST_HOLDER_WINS, noStaleWrite, recordGrantsOf } from '../kit/fencedLedger.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';
import { statementJob, type StatementJob } from './statementJob.js';
import { createStatementTables, measureStatement, observeStatement, STATEMENT_METRICS } from './statementTable.js';
import fenceComparedInApp from './mutants/fenceComparedInApp.js';
import noFenceGuard from './mutants/noFenceGuard.js';
import noWatchdog from './variants/noWatchdog.js';
import watchdog from './variants/watchdog.js';
import watchdogFenced from './variants/watchdogFenced.js';
import { LIBRARY_VARIANTS } from './libraryVariants.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { EXERCISE } from './exercise.js';

const WORKERS = ['worker-1', 'worker-2'];

export default defineScenario<StatementJob>({
  id: 'event-loop-block',
  title: 'Blocked event loop',
  summary: 'A worker holding a lease blocks its own event loop for longer than the lease; a watchdog timer in that loop cannot renew it.',
  source: import.meta.url,
  teachingOrder: 7,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    leaseParam('How long the lease lives in Redis; a watchdog renews it every third of that.', { min: 300 }),
    {
      kind: 'int',
      name: 'blockMs',
      label: 'Event-loop block',
      unit: 'ms',
      help: "How long worker-1's synchronous task blocks its event loop, right after it takes the lease.",
      min: 0,
      max: 15_000,
      default: 1500,
    },
    workParam('How long each worker then prepares the statement (asynchronously) before it writes.', { default: 800 }),
  ],
  metrics: STATEMENT_METRICS,
  variants: [noWatchdog, watchdog, watchdogFenced, ...LIBRARY_VARIANTS],
  mutants: [noFenceGuard, fenceComparedInApp],
  // A block well inside the lease (the watchdog keeps it); and a short lease with a long block.
  stabilityParams: [
    { leaseMs: 2000, blockMs: 500, workMs: 2000 },
    { leaseMs: 400, blockMs: 900, workMs: 200 },
  ],

  notExplorable:
    "worker-1's race is a synchronous block of its own event loop, out of the scheduler's sight (no scheduling point inside it): an explored run took about 75 s a schedule here (2026-12-06), too slow to search",
  workers: () => WORKERS,
  watchedKeys: () => [LOCK_KEY, FENCE_KEY],
  deadlineMs: (params) => 15_000 + intParam(params, 'blockMs') + intParam(params, 'leaseMs') + 2 * intParam(params, 'workMs'),

  async setup(stores) {
    await createStatementTables(stores);
    return {};
  },

  // Every new holder of the lease, as the server sees it in Redis, is a grant: no worker records its own.
  onKeyObserved: recordGrantsOf(LOCK_KEY),

  observe: async (stores) => ({ [POSTGRES_STORE]: await observeStatement(stores) }),

  async measure(stores) {
    return { ...(await measureStatement(stores)) };
  },

  // worker-2 is always granted the lease after worker-1, so its write must be the one that stays.
  // Who writes last is the choreography's order; under an explored schedule, only the fence's rule holds.
  stagedExpectations: [LAST_HOLDER_WINS],
  expectations: () => [
    noStaleWrite('no write lands from a worker whose lease had already passed to another'),
    lastHolderWins(WORKERS[1]!, 'the statement keeps the write of worker-2, the last worker granted the lease'),
  ],

  work: handover.work(statementJob),
});
