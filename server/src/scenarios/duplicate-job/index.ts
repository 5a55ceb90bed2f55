// duplicate-job: a nightly job fires on every container at once and must send one
// report e-mail. Each variant is one way to guard it with a Redis lock.
import { choiceSpec } from '../kit/choiceParam.js';
import { leaseParam, workParam } from '../kit/leaseParams.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { EXERCISE } from './exercise.js';
import { FetchFailed, fireWhenDue, lockKeys, nightlyJob, type NightlyJob } from './nightlyJob.js';
import { FAIL_INSIDE_THE_LEASE, OVERRUN_THEN_FAIL } from './declaredSets.js';
import { createReportTables, maxConcurrentBuilds } from './reportTables.js';
import pgAdvisoryXactLock from './mutants/pgAdvisoryXactLock.js';
import tokenDelexConstantToken from './mutants/tokenDelexConstantToken.js';
import tokenLuaConstantToken from './mutants/tokenLuaConstantToken.js';
import tokenLuaGetThenDel from './mutants/tokenLuaGetThenDel.js';
import tokenLuaPlainDel from './mutants/tokenLuaPlainDel.js';
import tokenLuaReleaseOnlyOnSuccess from './mutants/tokenLuaReleaseOnlyOnSuccess.js';
import tokenLuaWithoutNx from './mutants/tokenLuaWithoutNx.js';
import blindDel from './variants/blindDel.js';
import noLock from './variants/noLock.js';
import pgAdvisory from './variants/pgAdvisory.js';
import setnxNoExpiry from './variants/setnxNoExpiry.js';
import setnxThenExpire from './variants/setnxThenExpire.js';
import tokenDelex from './variants/tokenDelex.js';
import tokenLua from './variants/tokenLua.js';
import waitForLock from './variants/waitForLock.js';
import { LIBRARY_VARIANTS } from './libraryVariants.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { ARRIVE_TOGETHER, HOLDER_LIVES, LEASE_OUTLASTS_THE_WORK } from '../kit/scheduleAssumptions.js';

export default defineScenario<NightlyJob>({
  id: 'duplicate-job',
  title: 'Duplicate job',
  summary: 'A nightly job runs on every container at once; the report e-mail must go out once.',
  source: import.meta.url,
  teachingOrder: 1,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    { kind: 'int', name: 'workers', label: 'Workers', help: 'Containers running the job.', min: 1, max: 20, default: 3 },
    workParam('How long the job works before it sends the e-mail.', { max: 10_000, default: 120 }),
    // At least 100 ms: a shorter lease is within a busy machine's timer jitter, and a library
    // that renews one (redis-semaphore refreshes at 80 % of it) let it lapse in some runs only.
    leaseParam('How long the lock lives in Redis.', { min: 100, max: 120_000, default: 30_000 }),
    choiceSpec('arrival', 'Arrival', {
      together: 'every container fires at once.',
      late: 'worker-2 fires when the first lease is gone, the rest when worker-1 is done.',
    }),
    choiceSpec('failure', 'Failure', {
      none: null,
      'first-fails':
        "the first container to start the job (worker-1 when arriving late) has its data fetch fail after workMs, before it starts the report; the job throws while the lock is held, and the variant's release runs, or not.",
    }),
  ],
  metrics: [
    { name: 'emailsSent', label: 'E-mails sent', source: 'PostgreSQL: rows of emails' },
    {
      name: 'maxConcurrentHolders',
      label: 'Max concurrent holders',
      source:
        'PostgreSQL: most reports being built at once, each from its reports row to its e-mail (clock_timestamp() of both rows; a report never sent counts to the end of the run); an e-mail must name its report (foreign key)',
    },
    // Redis's PTTL codes, in words.
    {
      name: 'lockTtlAfterRunMs',
      label: 'Lock TTL after run (ms)',
      meanings: { '-2': 'no key', '-1': 'no expiry' },
      source: 'Redis: largest PTTL of the lock keys after the run, rounded up to whole seconds (-1 if any has no expiry)',
    },
  ],
  variants: [noLock, setnxNoExpiry, setnxThenExpire, blindDel, waitForLock, tokenLua, tokenDelex, pgAdvisory, ...LIBRARY_VARIANTS],
  mutants: [
    tokenLuaWithoutNx,
    pgAdvisoryXactLock,
    tokenLuaPlainDel,
    tokenLuaConstantToken,
    tokenLuaGetThenDel,
    tokenLuaReleaseOnlyOnSuccess,
    tokenDelexConstantToken,
  ],
  // More containers, all trying while the first holds the lock; and two containers that
  // arrive one after the other. Both keep each variant's own timing: with more containers
  // arriving late, or a workMs shorter than blind-del's 1 s lease, whether a starved
  // process is in time would depend on the machine's load (stability showed 9/10 and 18/20).
  // Then two sets where worker-1's fetch fails, for the release's near-misses: its fetch
  // outlasts its lease, so its release comes after worker-2 took the lock (a blind DEL, or
  // one that matches a constant token, lets worker-3 in); and it fails at once, inside a
  // 3 s lease (a release skipped leaves the lock to turn the others away; a GET and a DEL
  // split by a stall delete worker-2's lock). Each leaves a second of slack either way.
  stabilityParams: [{ workers: 5, arrival: 'together' }, { workers: 2, arrival: 'late' }, OVERRUN_THEN_FAIL, FAIL_INSIDE_THE_LEASE],

  workers: (params) => Array.from({ length: intParam(params, 'workers') }, (_, i) => `worker-${i + 1}`),
  watchedKeys: (_params, run) => lockKeys(run.date),
  deadlineMs: (params) => 15_000 + 2 * intParam(params, 'leaseMs') + intParam(params, 'workers') * intParam(params, 'workMs'),

  async setup(stores) {
    await createReportTables(stores);
    return {};
  },

  async observe(stores) {
    const { rows } = await stores.sql<{ n: number }>('select count(*)::int as n from emails');
    return { [POSTGRES_STORE]: { emails: `${rows[0]?.n ?? 0} sent` } };
  },

  async measure(stores, _params, run) {
    const emails = await stores.sql<{ n: number }>('select count(*)::int as n from emails');
    // The lock keys' PTTL as Redis reports it: -1 when one never expires, -2 when none is left.
    const ttls = await Promise.all(lockKeys(run.date).map((k) => stores.redis.pttl(stores.key(k))));
    const longest = Math.max(...ttls);
    return {
      emailsSent: emails.rows[0]?.n ?? 0,
      maxConcurrentHolders: await maxConcurrentBuilds(stores),
      // A lease still counting down, to the whole second above: the same figure run after run,
      // where the milliseconds would tell only how long the run took to end.
      lockTtlAfterRunMs: ttls.includes(-1) ? -1 : longest > 0 ? Math.ceil(longest / 1000) * 1000 : longest,
    };
  },

  // A lock keeps a second e-mail out only while the others try during the holder's work, inside
  // its lease, and the holder lives to send: the choreography stages all three, a schedule may not.
  assumptions: [ARRIVE_TOGETHER, LEASE_OUTLASTS_THE_WORK, HOLDER_LIVES],
  expectations: () => [
    { id: 'one-email', metric: 'emailsSent', op: 'eq', value: 1, text: 'exactly one report e-mail is sent' },
    { id: 'one-holder', metric: 'maxConcurrentHolders', op: 'lte', value: 1, text: 'at most one container runs the job at a time' },
    { id: 'no-stuck-lock', metric: 'lockTtlAfterRunMs', op: 'ne', value: -1, text: 'no lock is left behind without an expiry' },
  ],

  async work(ctx, variant) {
    const job = nightlyJob(ctx);
    await fireWhenDue(ctx);
    ctx.emit({ type: 'job-fired' });
    try {
      await variant.run(job);
    } catch (error) {
      // A failed job is a fact of the run, not a broken worker: the container stays up.
      if (!(error instanceof FetchFailed)) throw error;
      ctx.emit({ type: 'note', text: `the job failed: ${error.message}; no report is built` });
    }
  },
});
