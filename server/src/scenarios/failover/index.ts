// failover: a real Redis primary with real replicas and a real Sentinel. worker-1 takes a
// lock on the primary; the primary dies before the replica Sentinel will promote has the
// key; worker-2 takes the same lock on the promoted replica. Only the database can tell
// worker-1's stale write from worker-2's.
import { createFencedRow, ledgerMetrics, measureFencedLedger, noStaleWrite, ledgerFigures, observeFencedRow } from '../kit/fencedLedger.js';
import { choiceSpec } from '../kit/choiceParam.js';
import { workParam } from '../kit/leaseParams.js';
import { nodeGrantSource } from '../kit/nodeGrants.js';
import { choiceParam, defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { waitForFailover } from './choreography.js';
import { failoverJob, type FailoverJob } from './failoverJob.js';
import { startFailoverFixture, type FailoverFixture } from './fixture.js';
import { connectThroughSentinel } from './lockClient.js';
import { deadlineMs } from './timing.js';
import { NODES } from './keys.js';
import bypassesTheFence from './mutants/bypassesTheFence.js';
import fenceComparedInApp from './mutants/fenceComparedInApp.js';
import noFenceGuard from './mutants/noFenceGuard.js';
import waitTreatedAsGuarantee from './mutants/waitTreatedAsGuarantee.js';
import pgFence from './variants/pgFence.js';
import plainLock from './variants/plainLock.js';
import waitReplica from './variants/waitReplica.js';
import { LIBRARY_VARIANTS } from './libraryVariants.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { EXERCISE } from './exercise.js';

const metrics = ledgerMetrics('documents', nodeGrantSource("the lab's nodes", "the first time any of them held a worker's token"));

export default defineScenario<FailoverJob, FailoverFixture>({
  id: 'failover',
  title: 'Lock lost in a failover',
  summary:
    'Redis replicates asynchronously: the primary dies before its replica has the lock, Sentinel promotes the replica, and a second worker takes the same lock.',
  source: import.meta.url,
  teachingOrder: 8,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    choiceSpec('outage', 'Outage', {
      primary: 'the primary dies alone.',
      zone: 'its zone goes down — the primary and the near replica beside it die together.',
    }),
    choiceSpec('lag', 'Replication lag', {
      slow: "the link to the far replica holds the primary's bytes longer than the run lasts.",
      none: 'the far replica has copied every write when the outage strikes.',
    }),
    {
      kind: 'int',
      name: 'waitTimeoutMs',
      label: 'WAIT timeout',
      unit: 'ms',
      help: 'How long WAIT blocks for a replica to acknowledge the lock (wait-replica).',
      min: 200,
      max: 10_000,
      default: 1000,
    },
    {
      kind: 'int',
      name: 'downAfterMs',
      label: 'Sentinel down-after',
      unit: 'ms',
      help: 'How long the primary must stay silent before Sentinel calls it down (down-after-milliseconds).',
      min: 300,
      max: 10_000,
      default: 500,
    },
    workParam('How long each worker edits the document before it writes.'),
  ],
  metrics: [
    metrics.maxConcurrentHolders,
    metrics.staleWritesAccepted,
    metrics.staleWritesRejected,
    {
      name: 'replicaHadKeyAtFailover',
      label: 'Promoted replica had the lock',
      source: "Redis: GET of the lock on the replica Sentinel promotes, read by the lab's outage right after the kill",
    },
    metrics.finalWriter,
  ],
  variants: [plainLock, waitReplica, pgFence, ...LIBRARY_VARIANTS],
  mutants: [noFenceGuard, fenceComparedInApp, bypassesTheFence, waitTreatedAsGuarantee],
  // The whole zone down, and a replication link with no lag; and the primary dying alone,
  // where wait-replica (zone by its own defaults) is turned away by its WAIT check and passes.
  stabilityParams: [{ outage: 'zone' }, { lag: 'none', workMs: 600 }, { outage: 'primary' }],

  notExplorable:
    "its workers take the lock on the lab's own Redis primary and replica, on connections of their own the scheduler does not see, and its race is the lab's failover, which a schedule does not play",
  workers: () => ['worker-1', 'worker-2'],
  // The far replica a host of its own, so that the slow link is held in the kernel.
  lab: (params) => ({ network: false, ...(choiceParam(params, 'lag') === 'slow' ? { nodes: [NODES.far] } : {}) }),
  watchedKeys: () => [],
  deadlineMs,

  async setup(stores, params, run) {
    await createFencedRow(stores, 'documents', 'first draft');
    await stores.sql(`create table fences (name text primary key, n int not null)`);
    await stores.sql(`insert into fences values ('document', 0)`);
    const downAfterMs = intParam(params, 'downAfterMs');
    return startFailoverFixture(stores, {
      outage: choiceParam(params, 'outage') === 'zone' ? 'zone' : 'primary',
      lag: choiceParam(params, 'lag') === 'none' ? 'none' : 'slow',
      downAfterMs,
      // Sentinel "fixes" a replica whose primary address differs from the one it watches (the far
      // replica points at the lab's link) once failover-timeout has passed: never within a run.
      failoverTimeoutMs: 2 * deadlineMs(params),
      // A guard against a Sentinel that never promotes, not a figure: on a loaded 2-core machine it has taken over 16 s.
      promotionTimeoutMs: 30_000 + 3 * downAfterMs,
      ...(run.hosts?.[NODES.far] ? { farHost: run.hosts[NODES.far] } : {}),
    });
  },

  async observe(stores, fixture) {
    return { ...(await fixture.truth()), [POSTGRES_STORE]: { document: await observeFencedRow(stores, 'documents') } };
  },

  async measure(stores, _params, _run, fixture) {
    await fixture.grants.stop(); // every grant the server saw on the nodes, on record
    const truth = await measureFencedLedger(stores, 'documents');
    return {
      ...ledgerFigures(truth, 'maxConcurrentHolders', 'staleWritesAccepted', 'staleWritesRejected', 'finalWriter'),
      replicaHadKeyAtFailover: fixture.outcome().replicaHadKey ? 'yes' : 'no',
    };
  },

  // Two holders may exist after a failover; the lesson is that no stale write may land.
  expectations: () => [noStaleWrite('no write lands from a worker whose lock had already been granted to another')],

  async work(ctx, variant) {
    await waitForFailover(ctx); // worker-2 arrives once Sentinel has promoted a replica
    const lockRedis = await connectThroughSentinel(ctx);
    try {
      await variant.run(failoverJob(ctx, lockRedis));
    } finally {
      lockRedis.disconnect();
    }
  },
});
