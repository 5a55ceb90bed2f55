// fence-check: the storage's check is the variant — none, equality with a registered lease
// id, greater-than in the application, or greater-than in the database's update. Every
// run plays four orderings of a stale write against a newer holder's, each on its own row,
// with worker-1's process stopped for real (SIGSTOP) at a different step.
import { leaseParam, pauseParam } from '../kit/leaseParams.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { latch, waitForFreeLease } from './choreography.js';
import { checkJob, type CheckJob } from './checkJob.js';
import { createLedger, measureOutcomes, observeDocuments } from './documentLedger.js';
import { ORDERINGS, OUTCOMES, fenceKey, lockKey } from './orderings.js';
import comparedInApp from './mutants/comparedInApp.js';
import fenceNotStored from './mutants/fenceNotStored.js';
import notEqualGuard from './mutants/notEqualGuard.js';
import unguardedFallback from './mutants/unguardedFallback.js';
import databaseGuard from './variants/databaseGuard.js';
import equalLeaseId from './variants/equalLeaseId.js';
import greaterThanInApp from './variants/greaterThanInApp.js';
import none from './variants/none.js';
import { EXERCISE } from './exercise.js';

const WORKERS = ['worker-1', 'worker-2'];

export default defineScenario<CheckJob>({
  id: 'fence-check',
  title: "The storage's fence check",
  summary:
    "Which check lets a stale write through? Four orderings of a stale write against a newer holder's, played against the check you choose.",
  source: import.meta.url,
  teachingOrder: 11,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    leaseParam("How long each ordering's lease lives in Redis.", { max: 5000, default: 300 }),
    pauseParam("How long worker-1's process is stopped (SIGSTOP) in each ordering, at the step the ordering names.", {
      max: 10_000,
      default: 700,
    }),
  ],
  metrics: [
    ...ORDERINGS.map((o) => ({
      name: o.metric,
      label: o.label,
      source:
        "PostgreSQL: a trigger's record of every change of the row, against Redis's record of each grant (made by the granting script, on Redis's clock); 'refused' rather than 'no stale write' from the attempts the write helper logs in the write's transaction",
    })),
    {
      name: 'orderingsLetThrough',
      label: 'Orderings let through',
      source: "PostgreSQL and Redis: orderings whose row was last changed by a stale write, by the trigger's record and the grants' record",
    },
  ],
  variants: [none, equalLeaseId, greaterThanInApp, databaseGuard],
  mutants: [fenceNotStored, notEqualGuard, comparedInApp, unguardedFallback],
  // A lease far shorter than the pause, and a pause far shorter than the lease (the
  // window is most of the lease, so a busy machine's delays cannot close it).
  stabilityParams: [
    { leaseMs: 150, pauseMs: 400 },
    { leaseMs: 5000, pauseMs: 400 },
  ],

  workers: () => WORKERS,
  watchedKeys: () => ORDERINGS.flatMap((o) => [lockKey(o.id), fenceKey(o.id)]),
  deadlineMs: (params) => 20_000 + ORDERINGS.length * (intParam(params, 'pauseMs') + 2 * intParam(params, 'leaseMs') + 500),

  async setup(stores) {
    await createLedger(stores);
    return {};
  },

  observe: async (stores) => ({ PostgreSQL: await observeDocuments(stores) }),

  async measure(stores) {
    const outcomes = await measureOutcomes(stores, WORKERS[0]!);
    const letThrough = Object.values(outcomes).filter((v) => v === OUTCOMES.letThrough).length;
    return { ...outcomes, orderingsLetThrough: letThrough };
  },

  expectations: () =>
    ORDERINGS.map((o) => ({
      id: `${o.id}-held`,
      metric: o.metric,
      op: 'ne' as const,
      value: OUTCOMES.letThrough,
      text: o.text,
    })),

  async work(ctx, variant) {
    for (const o of ORDERINGS) {
      await ctx.barrier(`start:${o.id}`);
      ctx.emit({ type: 'note', text: `ordering: ${o.label.toLowerCase()}` });
      if (ctx.workerId !== ctx.workerIds[0]) await waitForFreeLease(ctx, o);
      try {
        await variant.run(checkJob(ctx, o, variant.checkpoints ?? []));
      } finally {
        ctx.signal(latch.finished(ctx.workerId, o));
      }
    }
  },
});
