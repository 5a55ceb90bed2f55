// hot-key: 20 jobs about 5 different customers, each guarded by a Redis lock. With one
// global key every job waits for every other; with a key per customer only jobs of the
// same customer wait for each other. Both are safe; one is a queue of one.
import { LEASE_OUTLASTS_THE_WORK } from '../kit/scheduleAssumptions.js';
import { mostAtOnceSource } from '../kit/spanRows.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { entityJob, type EntityJob } from './entityJob.js';
import { entitiesInParallel, entityNames, planJobs, workerIds } from './jobPlan.js';
import { createJobRuns, measureJobRuns, observeJobRuns } from './jobRuns.js';
import { LOCK_KEY } from './keys.js';
import entityTruncated from './mutants/entityTruncated.js';
import keyPerJob from './mutants/keyPerJob.js';
import loserSkips from './mutants/loserSkips.js';
import globalKey from './variants/globalKey.js';
import perEntityKey from './variants/perEntityKey.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { EXERCISE } from './exercise.js';

export default defineScenario<EntityJob>({
  id: 'hot-key',
  title: 'Hot key',
  summary: '20 jobs for 5 customers behind one lock key, or behind one key per customer: both safe, one a queue of one.',
  source: import.meta.url,
  teachingOrder: 5,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'jobs',
      label: 'Jobs',
      help: 'Jobs to run; job i is about customer i mod customers.',
      min: 1,
      max: 40,
      default: 20,
    },
    { kind: 'int', name: 'entities', label: 'Customers', help: 'Different entities the jobs are about.', min: 1, max: 10, default: 5 },
    {
      kind: 'int',
      name: 'workers',
      label: 'Workers',
      help: 'Worker processes; the jobs are spread over them and each runs its jobs concurrently.',
      min: 1,
      max: 10,
      default: 5,
    },
    {
      kind: 'int',
      name: 'jobMs',
      label: 'Job length',
      unit: 'ms',
      help: 'How long one job works while it holds its lock.',
      min: 100,
      max: 2000,
      default: 200,
    },
  ],
  metrics: [
    { name: 'jobsDone', label: 'Jobs done', source: 'PostgreSQL: rows of job_runs with an end' },
    {
      name: 'maxParallelJobs',
      label: 'Most jobs running at once',
      source: mostAtOnceSource('job_runs'),
    },
    {
      name: 'maxParallelPerEntity',
      label: 'Most jobs of one customer at once',
      source: 'PostgreSQL: most job_runs rows of one customer whose spans overlap',
    },
    {
      name: 'wallMs',
      label: 'Wall time (ms, in whole job lengths)',
      source: 'PostgreSQL: the longest chain of job_runs rows each started after the last ended, times the job length',
    },
  ],
  variants: [globalKey, perEntityKey],
  mutants: [keyPerJob, entityTruncated, loserSkips],
  // A customer's lock keeps its second job waiting only while the lease lives: one that runs out
  // on Redis's clock mid-job (an explored schedule may let it) lets the next job of that customer
  // start beside it.
  assumptions: [LEASE_OUTLASTS_THE_WORK],
  // Uneven spread over fewer workers; every customer in one worker process; and ten
  // customers, where customer-1 and customer-10 differ only past their tenth character.
  stabilityParams: [
    { jobs: 7, entities: 3, workers: 2, jobMs: 120 },
    { jobs: 12, entities: 4, workers: 1, jobMs: 150 },
    { jobs: 10, entities: 10, workers: 2, jobMs: 100 },
  ],

  workers: workerIds,
  watchedKeys: (params) => [LOCK_KEY, ...entityNames(params).map((e) => `${LOCK_KEY}:${e}`)],
  // Worst case: every job one after another, plus the lock handoffs.
  deadlineMs: (params) => 15_000 + intParam(params, 'jobs') * (intParam(params, 'jobMs') + 150),

  async setup(stores) {
    await createJobRuns(stores);
    return {};
  },

  observe: async (stores) => ({ [POSTGRES_STORE]: await observeJobRuns(stores) }),

  async measure(stores, params) {
    const truth = await measureJobRuns(stores);
    return {
      jobsDone: truth.done,
      maxParallelJobs: truth.maxParallel,
      maxParallelPerEntity: truth.maxParallelPerEntity,
      // Counted in job lengths, so lock handoffs (a few ms each) never change the figure.
      wallMs: truth.longestChain * intParam(params, 'jobMs'),
    };
  },

  expectations(params) {
    const jobs = intParam(params, 'jobs');
    const parallel = entitiesInParallel(params);
    return [
      { id: 'every-job-runs', metric: 'jobsDone', op: 'eq', value: jobs, text: `all ${jobs} jobs run` },
      {
        id: 'entities-side-by-side',
        metric: 'maxParallelJobs',
        op: 'eq',
        value: parallel,
        text: `jobs of different customers run side by side: ${parallel} at once`,
      },
      {
        id: 'one-job-per-entity',
        metric: 'maxParallelPerEntity',
        op: 'lte',
        value: 1,
        text: 'two jobs of the same customer never run at once',
      },
    ];
  },

  async work(ctx, variant) {
    const all = planJobs(ctx.params);
    const mine = all.filter((j) => j.worker === ctx.workerId).map((j) => entityJob(ctx, j, all, variant.checkpoints));
    await ctx.barrier('queued'); // every job of every worker is ready before any starts
    await Promise.all(mine.map((job) => variant.run(job)));
  },
});
