// expired-job: a real pg-boss queue in PostgreSQL. worker-1 fetches a job that charges a card
// and is stopped (SIGSTOP) in the work before the charge, past the job's expireInSeconds;
// pg-boss's maintenance, run by worker-2's instance, fails the expired job for retry, and
// worker-2 fetches it and runs it again. pg-boss never stops the first run: it goes on when its
// process does. The verdict counts the charges in PostgreSQL; pg-boss's own job row says how
// many times the job was started.
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { EXERCISE } from './exercise.js';
import { chargeQueue, type ChargeQueue } from './jobQueue.js';
import { chargeCount, createQueueTables, jobRow, observeCharges } from './queueTables.js';
import commitWhateverCompleted from './mutants/commitWhateverCompleted.js';
import completeAfterCommit from './mutants/completeAfterCommit.js';
import keyPerAttempt from './mutants/keyPerAttempt.js';
import completeInTransaction from './variants/completeInTransaction.js';
import plainInsert from './variants/plainInsert.js';
import uniqueJobId from './variants/uniqueJobId.js';

export default defineScenario<ChargeQueue>({
  id: 'expired-job',
  title: 'Expired job (pg-boss)',
  summary:
    "A pg-boss worker is stopped mid-job past the job's expiry; pg-boss's maintenance puts the job back for retry, another worker runs it, and the card is charged twice.",
  source: import.meta.url,
  teachingOrder: 14,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'expireInSeconds',
      label: 'Job expiry',
      unit: 's',
      help: "pg-boss's expireInSeconds: how long the job may stay active before pg-boss's maintenance (every second here) fails it for retry.",
      min: 1,
      max: 10,
      default: 1,
    },
    {
      kind: 'choice',
      name: 'fault',
      label: 'Fault',
      help: 'What happens to worker-1 mid-job: stopped (SIGSTOP) for the pause before its charge, or killed (SIGKILL) after its charge, before it completes the job.',
      options: [
        { value: 'stall', label: 'stopped before the charge' },
        { value: 'kill', label: 'killed after the charge' },
      ],
      default: 'stall',
    },
    {
      kind: 'int',
      name: 'pauseMs',
      label: 'Pause',
      unit: 'ms',
      help: "How long worker-1's process is stopped (SIGSTOP) in the work before the charge (fault: stopped).",
      min: 0,
      max: 20_000,
      default: 4000,
    },
  ],
  metrics: [
    { name: 'charges', label: 'Charges', source: 'PostgreSQL: rows of charges (each stamped with clock_timestamp() as it landed)' },
    {
      name: 'jobStarts',
      label: 'Job started (times)',
      source:
        "PostgreSQL: pg-boss's own job row in the run's schema, retry_count + 1 (pg-boss raises retry_count each time it fetches the job again)",
    },
  ],
  variants: [plainInsert, uniqueJobId, completeInTransaction],
  mutants: [keyPerAttempt, commitWhateverCompleted, completeAfterCommit],
  // A longer expiry and a pause well past it; a pause well inside it, where nobody runs the job
  // twice; and worker-1 killed after its charge, before the completion, so the job expires.
  stabilityParams: [{ expireInSeconds: 2, pauseMs: 6000 }, { expireInSeconds: 2, pauseMs: 500 }, { fault: 'kill' }],

  notExplorable: 'the job runs inside pg-boss, on a PostgreSQL pool of its own the scheduler does not see',
  workers: () => ['worker-1', 'worker-2'],
  watchedKeys: () => [],
  workersServeOneRun: 'its workers run pg-boss, whose instances and maintenance racelab does not own',
  deadlineMs: (params) => 20_000 + intParam(params, 'pauseMs') + 3000 * intParam(params, 'expireInSeconds'),

  async setup(stores) {
    return { shared: { schema: await createQueueTables(stores) } };
  },

  observe: observeCharges,

  async measure(stores) {
    return { charges: await chargeCount(stores), jobStarts: (await jobRow(stores))?.starts ?? 0 };
  },

  expectations: () => [{ id: 'one-charge', metric: 'charges', op: 'eq', value: 1, text: 'the card is charged once' }],

  async work(ctx, variant) {
    await variant.run(chargeQueue(ctx));
  },
});
