// duplicate-job: a nightly job fires on every container at once and must send one
// report e-mail. Each variant is one way to guard it with a Redis lock.
import { choiceParam, defineScenario, intParam } from '../types.js';
import { ENTITY, LOCK_KEY, nightlyJob, type NightlyJob } from './nightlyJob.js';
import { createReportTables, maxConcurrentBuilds } from './reportTables.js';
import pgAdvisoryXactLock from './mutants/pgAdvisoryXactLock.js';
import tokenLuaWithoutNx from './mutants/tokenLuaWithoutNx.js';
import blindDel from './variants/blindDel.js';
import noLock from './variants/noLock.js';
import pgAdvisory from './variants/pgAdvisory.js';
import setnxNoExpiry from './variants/setnxNoExpiry.js';
import setnxThenExpire from './variants/setnxThenExpire.js';
import tokenLua from './variants/tokenLua.js';
import waitForLock from './variants/waitForLock.js';

const lockKeys = (date: string): string[] => [LOCK_KEY, `${LOCK_KEY}:${ENTITY}:${date}`];

export default defineScenario<NightlyJob>({
  id: 'duplicate-job',
  title: 'Duplicate job',
  summary: 'A nightly job runs on every container at once; the report e-mail must go out once.',
  source: import.meta.url,
  teachingOrder: 1,
  params: [
    { kind: 'int', name: 'workers', label: 'Workers', help: 'Containers running the job.', min: 1, max: 20, default: 3 },
    { kind: 'int', name: 'workMs', label: 'Work', unit: 'ms', help: 'How long the job works before it sends the e-mail.', min: 0, max: 10_000, default: 120 },
    { kind: 'int', name: 'leaseMs', label: 'Lease', unit: 'ms', help: 'How long the lock lives in Redis.', min: 10, max: 120_000, default: 30_000 },
    {
      kind: 'choice',
      name: 'arrival',
      label: 'Arrival',
      help: 'together: every container fires at once. late: worker-2 fires when the first lease is gone, the rest when worker-1 is done.',
      options: [
        { value: 'together', label: 'together' },
        { value: 'late', label: 'late' },
      ],
      default: 'together',
    },
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
      source: 'Redis: largest PTTL of the lock keys after the run (-1 if any has no expiry)',
    },
  ],
  variants: [noLock, setnxNoExpiry, setnxThenExpire, blindDel, waitForLock, tokenLua, pgAdvisory],
  mutants: [tokenLuaWithoutNx, pgAdvisoryXactLock],
  // More containers, all trying while the first holds the lock; and two containers that
  // arrive one after the other. Both keep each variant's own timing: with more containers
  // arriving late, or a workMs shorter than blind-del's 1 s lease, whether a starved
  // process is in time would depend on the machine's load (stability showed 9/10 and 18/20).
  stabilityParams: [
    { workers: 5, arrival: 'together' },
    { workers: 2, arrival: 'late' },
  ],

  workers: (params) => Array.from({ length: intParam(params, 'workers') }, (_, i) => `worker-${i + 1}`),
  watchedKeys: (_params, run) => lockKeys(run.date),
  deadlineMs: (params) => 15_000 + 2 * intParam(params, 'leaseMs') + intParam(params, 'workers') * intParam(params, 'workMs'),

  async setup(stores) {
    await createReportTables(stores);
    return {};
  },

  async observe(stores) {
    const { rows } = await stores.sql<{ n: number }>('select count(*)::int as n from emails');
    return { PostgreSQL: { emails: `${rows[0]?.n ?? 0} sent` } };
  },

  async measure(stores, _params, run) {
    const emails = await stores.sql<{ n: number }>('select count(*)::int as n from emails');
    // The lock keys' PTTL as Redis reports it: -1 when one never expires, -2 when none is left.
    const ttls = await Promise.all(lockKeys(run.date).map((k) => stores.redis.pttl(stores.key(k))));
    return {
      emailsSent: emails.rows[0]?.n ?? 0,
      maxConcurrentHolders: await maxConcurrentBuilds(stores),
      lockTtlAfterRunMs: ttls.includes(-1) ? -1 : Math.max(...ttls),
    };
  },

  expectations: () => [
    { id: 'one-email', metric: 'emailsSent', op: 'eq', value: 1, text: 'exactly one report e-mail is sent' },
    { id: 'one-holder', metric: 'maxConcurrentHolders', op: 'lte', value: 1, text: 'at most one container runs the job at a time' },
    { id: 'no-stuck-lock', metric: 'lockTtlAfterRunMs', op: 'ne', value: -1, text: 'no lock is left behind without an expiry' },
  ],

  async work(ctx, variant) {
    const job = nightlyJob(ctx);
    if (choiceParam(ctx.params, 'arrival') === 'together') {
      await ctx.barrier('cron');
    } else if (ctx.workerId === 'worker-2') {
      await ctx.waitFor(...lockKeys(ctx.date).map((k) => `key-gone:${k}`), 'done:worker-1');
    } else if (ctx.workerId !== 'worker-1') {
      await ctx.waitFor('done:worker-1');
    }
    ctx.emit({ type: 'job-fired' });
    await variant.run(job);
  },
});
