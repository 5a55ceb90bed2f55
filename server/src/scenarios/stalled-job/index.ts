// stalled-job: a real bullmq queue. worker-1's Worker takes a job that charges a card and is
// stopped (SIGSTOP) in the provider call past the job's lock (or its event loop is blocked
// there, or it is killed after its charge); worker-2's Worker, whose stalled-job check finds
// the lock expired, moves the job back to wait and runs it again.
// bullmq's documentation says so: a stalled job may be processed twice. The verdict counts
// the charges that landed in PostgreSQL; Redis holds how many times bullmq started the job.
import { choiceSpec } from '../kit/choiceParam.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { EXERCISE } from './exercise.js';
import { chargeQueue, LOCK_KEY, type ChargeQueue } from './chargeQueue.js';
import { chargeCount, createChargeTables, jobStarts, observeCharges } from './chargesTable.js';
import checkThenInsert from './mutants/checkThenInsert.js';
import keyPerAttempt from './mutants/keyPerAttempt.js';
import fencedAttempt from './variants/fencedAttempt.js';
import plainInsert from './variants/plainInsert.js';
import uniqueJobId from './variants/uniqueJobId.js';

export default defineScenario<ChargeQueue>({
  id: 'stalled-job',
  title: 'Stalled job (bullmq)',
  summary:
    "A bullmq worker is stopped mid-job past the job's lock; the stalled-job check gives the job to another worker, and the card is charged twice.",
  source: import.meta.url,
  teachingOrder: 12,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'lockDurationMs',
      label: 'Job lock',
      unit: 'ms',
      help: "bullmq's lockDuration: how long a worker's lock on its job lives unless renewed; the stalled-job check runs every half of it.",
      min: 500,
      max: 10_000,
      default: 1000,
    },
    choiceSpec('fault', 'Fault', {
      stall: { label: 'stopped in the call', does: 'worker-1 is stopped (SIGSTOP) for the pause in the provider call.' },
      block: {
        label: 'event loop blocked in the call',
        does: 'worker-1 blocks its own event loop for the pause there (no signal: the process runs flat out).',
      },
      kill: { label: 'killed after the charge', does: 'worker-1 is killed (SIGKILL) after its charge, before bullmq completes the job.' },
    }),
    {
      kind: 'int',
      name: 'pauseMs',
      label: 'Pause',
      unit: 'ms',
      help: "How long worker-1's process is stopped (SIGSTOP), or its event loop blocked, in the provider call (fault: stopped or blocked).",
      min: 0,
      max: 20_000,
      default: 3000,
    },
  ],
  metrics: [
    { name: 'charges', label: 'Charges', source: 'PostgreSQL: rows of charges (each stamped with clock_timestamp() as it landed)' },
    { name: 'jobStarts', label: 'Job started (times)', source: "Redis: the job hash's attemptsStarted (ats), as bullmq counts it" },
  ],
  variants: [plainInsert, uniqueJobId, fencedAttempt],
  mutants: [keyPerAttempt, checkThenInsert],
  // A longer lock and a pause well past it; and a pause well inside it, where nobody runs the job twice.
  stabilityParams: [
    { lockDurationMs: 2000, pauseMs: 6000 },
    { lockDurationMs: 2000, pauseMs: 500 },
  ],

  notExplorable:
    'the job runs inside bullmq, on Redis connections of its own (ctx.redis.duplicate()) the scheduler does not see: with the choreography stepped aside no job is ever taken',
  workers: () => ['worker-1', 'worker-2'],
  watchedKeys: () => [LOCK_KEY],
  workersServeOneRun: 'its workers run bullmq, whose queues, workers and scripts racelab does not own',
  deadlineMs: (params) => 20_000 + intParam(params, 'pauseMs') + 3 * intParam(params, 'lockDurationMs'),

  async setup(stores) {
    await createChargeTables(stores);
    return {};
  },

  observe: observeCharges,

  async measure(stores) {
    return { charges: await chargeCount(stores), jobStarts: await jobStarts(stores) };
  },

  expectations: () => [{ id: 'one-charge', metric: 'charges', op: 'eq', value: 1, text: 'the card is charged once' }],

  async work(ctx, variant) {
    await variant.run(chargeQueue(ctx));
  },
});
