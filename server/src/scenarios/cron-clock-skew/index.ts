// cron-clock-skew: every node runs the same cron schedule by its own clock, and the
// clocks disagree. The batch is guarded by a correct lock on the schedule slot; when it
// is released as soon as the short job is done, a node whose clock is late fires after
// the release and runs the slot again.
import { mostAtOnceSource } from '../kit/spanRows.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { createBatchRuns, mostRunsAtOnce, observeBatchRuns, runsPerSlot } from './batchRuns.js';
import { agreeOnSlotStart, settleExpiringLock, waitForEarlierNodes } from './choreography.js';
import { cronJob, type CronJob } from './cronJob.js';
import { LOCK_KEY, slotKey } from './keys.js';
import { clockOffsetsMs, fireAtMs, nodeClock, nodeIds, slotAt, type Schedule } from './schedule.js';
import deletedWhenDone from './mutants/deletedWhenDone.js';
import leaseForTheJob from './mutants/leaseForTheJob.js';
import setWithoutNx from './mutants/setWithoutNx.js';
import lockPerSlot from './variants/lockPerSlot.js';
import releaseWhenDone from './variants/releaseWhenDone.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { MECHANISM } from '../../labnet/mechanisms.js';
import { EXERCISE } from './exercise.js';

export default defineScenario<CronJob>({
  id: 'cron-clock-skew',
  title: 'Cron and clock skew',
  summary: "Two nodes run the same cron schedule; node-2's clock is a second late and the job takes 300 ms.",
  source: import.meta.url,
  teachingOrder: 6,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'nodes',
      label: 'Nodes',
      help: "Nodes running the schedule; node-k's clock is (k-1) × skew behind node-1's.",
      min: 2,
      max: 4,
      default: 2,
    },
    {
      kind: 'int',
      name: 'skewMs',
      label: 'Clock skew',
      unit: 'ms',
      help: "How far each node's clock is behind the previous node's.",
      min: 0,
      max: 10_000,
      default: 1000,
    },
    { kind: 'int', name: 'jobMs', label: 'Job', unit: 'ms', help: 'How long the invoice batch takes.', min: 0, max: 5000, default: 300 },
    {
      kind: 'int',
      name: 'slotMs',
      label: 'Schedule period',
      unit: 'ms',
      help: 'The batch is due once per slot of this length (a minute by default).',
      min: 500,
      max: 120_000,
      default: 60_000,
    },
  ],
  metrics: [
    { name: 'runsPerSlot', label: 'Runs of the slot', source: 'PostgreSQL: most rows of batch_runs for one slot' },
    {
      name: 'maxConcurrentRuns',
      label: 'Most nodes in the batch at once',
      source: mostAtOnceSource('batch_runs'),
    },
  ],
  variants: [releaseWhenDone, lockPerSlot],
  mutants: [leaseForTheJob, deletedWhenDone, setWithoutNx],
  // Three nodes, one firing during the job and one after it; and a skew longer than the slot.
  stabilityParams: [
    { nodes: 3, skewMs: 200, jobMs: 300 },
    { slotMs: 600, skewMs: 900, jobMs: 100 },
  ],

  notExplorable:
    'its workers wait for the cron slot on clocks of their own, polling as they go: one schedule of release-when-done took 177,420 decisions and 212 s here (2026-12-06), too slow to search',
  workers: nodeIds,
  // Each node's own wall clock is moved (libfaketime) where the machine has it.
  lab: (params) => ({ network: false, clockOffsetsMs: clockOffsetsMs(params) }),
  watchedKeys: () => [slotKey(LOCK_KEY, 0)],
  deadlineMs: (params) =>
    15_000 + (intParam(params, 'nodes') - 1) * intParam(params, 'skewMs') + intParam(params, 'nodes') * intParam(params, 'jobMs'),

  async setup(stores) {
    await createBatchRuns(stores);
    return {};
  },

  observe: async (stores) => ({ [POSTGRES_STORE]: await observeBatchRuns(stores) }),

  async measure(stores) {
    return { runsPerSlot: await runsPerSlot(stores), maxConcurrentRuns: await mostRunsAtOnce(stores) };
  },

  expectations: () => [
    {
      id: 'once-per-slot',
      metric: 'runsPerSlot',
      op: 'eq',
      value: 1,
      text: 'the batch runs exactly once for its slot, whatever the clocks say',
    },
    { id: 'one-at-a-time', metric: 'maxConcurrentRuns', op: 'lte', value: 1, text: 'never two nodes in the batch at once' },
  ],

  async work(ctx, variant) {
    const index = ctx.workerIds.indexOf(ctx.workerId);
    const mechanism = String(ctx.shared.clockMechanism ?? MECHANISM.simulatedClock);
    const clock = nodeClock(ctx.params, index, mechanism === MECHANISM.faketime);
    // This node fires when its own clock reaches the start of slot 0, and runs the batch for
    // that slot: the one it was scheduled for, however late the machine lets it wake.
    const slot = 0;
    const schedule: Schedule = { startMs: await agreeOnSlotStart(ctx), slotMs: intParam(ctx.params, 'slotMs') };
    // Until its own clock reads the start: never a millisecond early, or it would fire in slot -1.
    while (clock.now() < schedule.startMs) await ctx.sleep(schedule.startMs - clock.now());
    await waitForEarlierNodes(ctx, index);
    await settleExpiringLock(ctx, slot, schedule.startMs + fireAtMs(ctx.params, index), () => clock.now() + clock.behindMs);
    // A lock held "until the slot ends" means nothing to a node whose clock already reads past it.
    if (slotAt(schedule, clock.now()) !== slot)
      throw new Error(
        `${ctx.workerId} reached the lock only after its slot had ended by its own clock: the machine is too busy for a ${schedule.slotMs} ms slot; run it again`,
      );
    ctx.emit({ type: 'job-fired' });
    if (clock.behindMs > 0) ctx.emit({ type: 'clock-skewed', offsetMs: -clock.behindMs, reference: ctx.workerIds[0]!, mechanism });
    await variant.run(cronJob(ctx, index, clock, schedule, slot, variant.checkpoints));
  },
});
