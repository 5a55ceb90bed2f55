// cron-every-replica: a real croner schedule started in every replica of a service, as each
// copy of the service starts its own. Each fires for the slot by its own clock (clocks a
// little apart, moved by libfaketime), and with nothing shared the report is sent once per
// replica. A lock per slot or a unique row per slot makes it once; the lock only while no
// clock is a whole slot late.
import { MECHANISM } from '../../labnet/mechanisms.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { EXERCISE } from './exercise.js';
import { agreeOnFirstSlot, checkInSlot, finishedLatch, waitForEarlierReplicas } from './choreography.js';
import { runScheduleOnce } from './cronReplica.js';
import { replicaJob, type ReplicaJob } from './replicaJob.js';
import { moveWallClock } from './replicaClock.js';
import { createReportTables, firings, observeReports, reportsSent } from './reportTables.js';
import { clockOffsetsMs, dueAtMs, replicaIds } from './schedule.js';
import claimPerReplica from './mutants/claimPerReplica.js';
import leaseForTheJob from './mutants/leaseForTheJob.js';
import releasedWhenDone from './mutants/releasedWhenDone.js';
import slotByDatabaseClock from './mutants/slotByDatabaseClock.js';
import everyReplica from './variants/everyReplica.js';
import lockPerSlot from './variants/lockPerSlot.js';
import uniqueSlotRow from './variants/uniqueSlotRow.js';

export default defineScenario<ReplicaJob>({
  id: 'cron-every-replica',
  title: 'A scheduler on every replica (croner)',
  summary:
    'Three replicas of a service each start the same croner schedule; their clocks are 300 ms apart, and the report is due once per slot.',
  source: import.meta.url,
  teachingOrder: 15,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'replicas',
      label: 'Replicas',
      help: "Replicas that each start the schedule; replica-k's clock is (k-1) × skew behind replica-1's.",
      min: 2,
      max: 4,
      default: 3,
    },
    {
      kind: 'int',
      name: 'skewMs',
      label: 'Clock skew',
      unit: 'ms',
      help: "How far each replica's clock is behind the previous replica's; the schedule's slot is two seconds.",
      min: 0,
      max: 3000,
      default: 300,
    },
    {
      kind: 'int',
      name: 'jobMs',
      label: 'Report',
      unit: 'ms',
      help: 'How long sending the report takes.',
      min: 0,
      max: 3000,
      default: 200,
    },
  ],
  metrics: [
    { name: 'reportsSent', label: 'Reports sent', source: 'PostgreSQL: rows of reports (one slot is due per run)' },
    {
      name: 'firings',
      label: 'croner fired (times)',
      source: "PostgreSQL: rows of firings, one written by each replica's croner callback as it starts",
      reported: true,
    },
  ],
  variants: [everyReplica, lockPerSlot, uniqueSlotRow],
  mutants: [releasedWhenDone, leaseForTheJob, claimPerReplica, slotByDatabaseClock],
  // One clock late by less than a slot and one by more; and clocks in step, every replica firing at once.
  stabilityParams: [
    { replicas: 3, skewMs: 1300 },
    { replicas: 4, skewMs: 0, jobMs: 500 },
  ],

  notExplorable:
    "its replicas wait for the cron slot on clocks of their own, as cron-clock-skew's workers do, whose one schedule took 177,420 decisions (2026-12-06): not searched",
  workers: replicaIds,
  // Each replica's own wall clock is moved (libfaketime) where the machine has it.
  lab: (params) => ({ network: false, clockOffsetsMs: clockOffsetsMs(params) }),
  watchedKeys: () => [],
  deadlineMs: (params) =>
    15_000 + (intParam(params, 'replicas') - 1) * intParam(params, 'skewMs') + intParam(params, 'replicas') * intParam(params, 'jobMs'),

  async setup(stores) {
    await createReportTables(stores);
    return {};
  },

  observe: observeReports,

  async measure(stores) {
    return { reportsSent: await reportsSent(stores), firings: await firings(stores) };
  },

  expectations: () => [
    {
      id: 'once-per-slot',
      metric: 'reportsSent',
      op: 'eq',
      value: 1,
      text: 'the report is sent once for its slot, however many replicas fire',
    },
  ],

  async work(ctx, variant) {
    const index = ctx.workerIds.indexOf(ctx.workerId);
    const behindMs = dueAtMs(ctx.params, index);
    const mechanism = String(ctx.shared.clockMechanism ?? MECHANISM.simulatedClock);
    // Without libfaketime the replica's clock is moved here, in its own process, before croner reads it.
    const putClockBack = mechanism === MECHANISM.faketime ? () => undefined : moveWallClock(behindMs);
    try {
      const startMs = await agreeOnFirstSlot(ctx);
      await runScheduleOnce(ctx, startMs, async (cron) => {
        ctx.emit({ type: 'job-fired' });
        if (behindMs > 0) ctx.emit({ type: 'clock-skewed', offsetMs: -behindMs, reference: ctx.workerIds[0]!, mechanism });
        const job = replicaJob(ctx, index, cron);
        await ctx.pg.query('insert into firings (replica, slot, replica_clock) values ($1, $2, $3)', [
          ctx.workerId,
          job.slot,
          cron.currentRun(),
        ]);
        await waitForEarlierReplicas(ctx, index);
        checkInSlot(ctx, index, startMs, Date.now() + behindMs);
        try {
          await variant.run(job);
        } finally {
          ctx.signal(finishedLatch(ctx.workerId));
        }
      });
    } finally {
      putClockBack();
    }
  },
});
