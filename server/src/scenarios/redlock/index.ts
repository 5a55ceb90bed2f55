// redlock: five independent Redis nodes and a majority lock (Redlock). worker-1 takes the
// lock on a majority and its process is stopped for real (SIGSTOP); every key expires,
// worker-2 takes a majority of its own and writes; worker-1 wakes up and writes too. A
// clock jump on one node can give a second majority with no pause at all.
import { choiceSpec } from '../kit/choiceParam.js';
import { leaseParam, pauseParam, workParam } from '../kit/leaseParams.js';
import { nodeGrantSource } from '../kit/nodeGrants.js';
import { choiceParam, defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { asReach } from './reach.js';
import { storedName } from '../keyAliases.js';
import { LOCK_KEY } from './keys.js';
import { startCluster, type Cluster } from './cluster.js';
import { labMechanisms } from '../../labnet/mechanisms.js';
import {
  createFencedRow,
  ledgerMetrics,
  measureFencedLedger,
  noStaleWrite,
  lastHolderWins,
  LAST_HOLDER_WINS,
  ledgerFigures,
} from '../kit/fencedLedger.js';
import { redlockHarness, type RedlockJob } from './redlockJob.js';
import fenceAfterThePause from './mutants/fenceAfterThePause.js';
import fenceComparedInApp from './mutants/fenceComparedInApp.js';
import noFenceGuard from './mutants/noFenceGuard.js';
import redlock, { HAND_WRITTEN_ASKING } from './variants/redlock.js';
import redlockFenced from './variants/redlockFenced.js';
import { LIBRARY_VARIANTS, libraryAsking } from './libraryVariants.js';
import { LOCKS } from '../../locks/lockModules.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { EXERCISE } from './exercise.js';

const WORKERS = ['worker-1', 'worker-2'];
const metrics = ledgerMetrics('documents', nodeGrantSource('the five nodes', "the moment a majority of them held one worker's token"));

export default defineScenario<RedlockJob, Cluster>({
  id: 'redlock',
  title: 'Redlock',
  summary:
    'A lock held by a majority of five independent Redis nodes is still granted twice: a stopped process, or one node whose clock jumps, is enough.',
  source: import.meta.url,
  teachingOrder: 9,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    leaseParam('How long the lock lives on each node.', { min: 500 }),
    pauseParam("How long worker-1's process is stopped (SIGSTOP) right after it takes the lock."),
    workParam('How long each worker edits the document before it writes.'),
    {
      kind: 'int',
      name: 'clockJumpMs',
      label: 'Clock jump on node-3',
      unit: 'ms',
      help: "How far node-3's clock jumps forward right after worker-1 takes the lock: its keys expire that much early. 0: no jump.",
      min: 0,
      max: 60_000,
      default: 0,
    },
    choiceSpec('reach', 'Network', {
      all: { label: 'every node reachable', does: 'every worker reaches every node.' },
      split: { label: 'split: 1–3 | 3–5', does: 'worker-1 reaches nodes 1–3 and worker-2 nodes 3–5; the others never answer.' },
    }),
  ],
  metrics: [metrics.maxConcurrentHolders, metrics.staleWritesAccepted, metrics.staleWritesRejected, metrics.finalWriter],
  variants: [redlock, redlockFenced, ...LIBRARY_VARIANTS],
  mutants: [noFenceGuard, fenceComparedInApp, fenceAfterThePause],
  // The clock jump alone in a split, and the split with the pause.
  stabilityParams: [
    { clockJumpMs: 1000, pauseMs: 0, reach: 'split' },
    { reach: 'split', leaseMs: 2000, pauseMs: 3000, workMs: 100 },
  ],

  notExplorable:
    "its workers ask the lab's five Redis nodes on connections of their own, which the scheduler does not see, and its race is a lab network fault (a node cut or slowed), which a schedule does not play",
  workers: () => WORKERS,
  // Each worker a host of its own, so that a split is a partition in the kernel.
  lab: () => ({ network: true }),
  watchedKeys: () => [],
  deadlineMs: (params) => 20_000 + intParam(params, 'pauseMs') + 2 * intParam(params, 'leaseMs') + 2 * intParam(params, 'workMs'),

  async setup(stores, params, run) {
    await createFencedRow(stores, 'documents', 'first draft');
    await stores.sql('create sequence fences');
    return startCluster(stores, {
      reach: asReach(choiceParam(params, 'reach')),
      workerIds: WORKERS,
      hosts: run.hosts,
      clockJumpMs: intParam(params, 'clockJumpMs'),
      lockKey: storedName(stores.key, LOCK_KEY),
      mechanisms: run.mechanisms ?? labMechanisms(),
    });
  },

  async observe(stores, cluster) {
    const { rows } = await stores.sql<{ writer: string; fence: number }>('select writer, fence from documents where id = 1');
    const row = rows[0];
    const document = row ? `${row.writer}${row.fence > 0 ? ` · fence ${row.fence}` : ''}` : 'no row';
    return { 'Redis node': await cluster.observe(), [POSTGRES_STORE]: { document } };
  },

  async measure(stores, _params, _run, cluster) {
    await cluster.grants.stop(); // every grant the server saw on the nodes, on record
    const truth = await measureFencedLedger(stores, 'documents');
    return ledgerFigures(truth, 'maxConcurrentHolders', 'staleWritesAccepted', 'staleWritesRejected', 'finalWriter');
  },

  // worker-2 always gets its majority after worker-1's, so its write must be the one that stays.
  // Who writes last is the choreography's order; under an explored schedule, only the fence's rule holds.
  stagedExpectations: [LAST_HOLDER_WINS],
  expectations: () => [
    noStaleWrite('no write lands from a worker whose lock had already passed to another'),
    lastHolderWins(WORKERS[1]!, 'the document keeps the write of worker-2, the last worker granted the lock'),
  ],

  async work(ctx, variant) {
    // How the variant's lock asks the nodes: a library's way, or the hand-written Redlock's.
    const module = LOCKS.find((lock) => lock.id === variant.id);
    const harness = await redlockHarness(ctx, module ? libraryAsking(module) : HAND_WRITTEN_ASKING);
    try {
      if (ctx.workerId !== ctx.workerIds[0]) await harness.waitForFreeLock();
      await variant.run(harness.job);
    } finally {
      harness.disconnect();
    }
  },
});
