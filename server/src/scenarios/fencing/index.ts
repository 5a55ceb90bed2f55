// fencing: worker-1 takes a lease on a document and its process is stopped for real
// (SIGSTOP); the lease expires, worker-2 takes it and writes; then worker-1 wakes up and
// writes too. Only the database can tell the stale write from the good one.
import { leaseParam, pauseParam, workParam } from '../kit/leaseParams.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { handover } from './choreography.js';
import { documentJob, type DocumentJob } from './documentJob.js';
import {
  createFencedRow,
  observeFencedRow,
  ledgerMetrics,
  OBSERVED_GRANTS,
  measureFencedLedger,
  recordGrantsOf,
  noStaleWrite,
  lastHolderWins,
  LAST_HOLDER_WINS,
  ledgerFigures,
} from '../kit/fencedLedger.js';
import { FENCE_KEY, LOCK_KEY } from './keys.js';
import { POSTGRES_STORE } from '@racelab/shared';
import bypassesTheFence from './mutants/bypassesTheFence.js';
import fenceAfterTheStall from './mutants/fenceAfterTheStall.js';
import fenceComparedInApp from './mutants/fenceComparedInApp.js';
import noFenceGuard from './mutants/noFenceGuard.js';
import fenced from './variants/fenced.js';
import leaseOnly from './variants/leaseOnly.js';
import { LIBRARY_VARIANTS } from './libraryVariants.js';
import { EXERCISE } from './exercise.js';
import { NEWER_HOLDER_WRITES_FIRST } from '../kit/scheduleAssumptions.js';

const WORKERS = ['worker-1', 'worker-2'];
const metrics = ledgerMetrics('documents', OBSERVED_GRANTS);

export default defineScenario<DocumentJob>({
  id: 'fencing',
  title: 'Fencing tokens',
  summary: "A worker's process stops while it holds a lease; the lease passes to another, and the first one wakes up and writes anyway.",
  source: import.meta.url,
  teachingOrder: 4,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    leaseParam('How long the lease lives in Redis.'),
    pauseParam("How long worker-1's process is stopped (SIGSTOP) right after it takes the lease."),
    workParam('How long each worker edits the document before it writes.'),
  ],
  metrics: [
    metrics.maxConcurrentHolders,
    metrics.staleWritesAccepted,
    metrics.staleWritesRejected,
    metrics.finalFence,
    metrics.finalWriter,
  ],
  variants: [leaseOnly, fenced, ...LIBRARY_VARIANTS],
  mutants: [noFenceGuard, fenceComparedInApp, fenceAfterTheStall, bypassesTheFence],
  // A lease far shorter than the pause, and a longer lease with a longer pause and work.
  stabilityParams: [
    { leaseMs: 500, pauseMs: 2000, workMs: 100 },
    { leaseMs: 2000, pauseMs: 4000, workMs: 600 },
  ],

  workers: () => WORKERS,
  watchedKeys: () => [LOCK_KEY, FENCE_KEY],
  deadlineMs: (params) => 15_000 + intParam(params, 'pauseMs') + intParam(params, 'leaseMs') + intParam(params, 'workMs'),

  async setup(stores) {
    await createFencedRow(stores, 'documents', 'first draft');
    return {};
  },

  // Every new holder of the lease, as the server sees it in Redis, is a grant: no worker records its own.
  onKeyObserved: recordGrantsOf(LOCK_KEY),

  observe: async (stores) => ({ [POSTGRES_STORE]: { document: await observeFencedRow(stores, 'documents') } }),

  async measure(stores) {
    const truth = await measureFencedLedger(stores, 'documents');
    return ledgerFigures(truth, 'maxConcurrentHolders', 'staleWritesAccepted', 'staleWritesRejected', 'finalFence', 'finalWriter');
  },

  // worker-2 is always granted the lease after worker-1, so its write must be the one that stays.
  // Who writes last is the choreography's order; under an explored schedule, only the fence's rule holds.
  stagedExpectations: [LAST_HOLDER_WINS],
  // A fence turns away a write older than one the row has taken, not one older than a grant
  // whose holder has not written yet: the choreography has worker-2 write first.
  assumptions: [NEWER_HOLDER_WRITES_FIRST],
  expectations: () => [
    noStaleWrite('no write lands from a worker whose lease had already passed to another'),
    lastHolderWins(WORKERS[1]!, 'the document keeps the write of worker-2, the last worker granted the lease'),
  ],

  work: handover.work(documentJob),
});
