// pooled-advisory-lock: two workers take the same PostgreSQL advisory lock through a real
// PgBouncer in transaction pooling mode with one server connection. A session-level lock is
// held by the server connection, and PgBouncer lends that connection to both clients: the
// re-entrant lock is granted twice. A transaction-level lock inside the transaction that does
// the work is held only as long as the pooler keeps the connection for that client.
import { MECHANISM } from '../../labnet/mechanisms.js';
import { pgbouncerMissing, startPgbouncer } from '../../services/pgbouncer.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { EXERCISE } from './exercise.js';
import { backendsUsed, createHoldsTable, maxConcurrentHolders, observeHolds } from './holdsTable.js';
import { pooledJob, type PooledJob } from './pooledJob.js';
import xactLockOwnStatement from './mutants/xactLockOwnStatement.js';
import sessionLock from './variants/sessionLock.js';
import xactLock from './variants/xactLock.js';

/** PgBouncer's server connections for the run: one, so that both workers' transactions land on the same backend. */
const POOL_SIZE = 1;
const WORKERS = ['worker-1', 'worker-2'] as const;

export default defineScenario<PooledJob>({
  id: 'pooled-advisory-lock',
  title: 'Advisory lock behind PgBouncer',
  summary:
    'Two workers take the same session-level advisory lock through PgBouncer in transaction mode; the pooler hands both the same backend, and both get the lock.',
  source: import.meta.url,
  teachingOrder: 13,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'workMs',
      label: 'Work',
      unit: 'ms',
      help: 'How long worker-1 works under the lock when nobody else gets it (it stops early once worker-2 holds it too).',
      min: 200,
      max: 10_000,
      default: 1000,
    },
  ],
  metrics: [
    {
      name: 'maxConcurrentHolders',
      label: 'Max concurrent holders',
      source: "PostgreSQL: most rows of holds under way at once, each from its start to its end on PostgreSQL's clock (clock_timestamp())",
    },
    {
      name: 'backends',
      label: 'Backends used',
      source: "PostgreSQL: distinct pg_backend_pid() the workers' pooled connections reported, in holds",
    },
  ],
  variants: [sessionLock, xactLock],
  mutants: [xactLockOwnStatement],
  stabilityParams: [{ workMs: 300 }, { workMs: 3000 }],
  unavailable: () => pgbouncerMissing(),
  workersOnServer: "they connect to the run's PgBouncer, which listens on this server's loopback",

  notExplorable: "its workers' advisory locks go through the run's PgBouncer on connections of their own, which the scheduler does not see",
  workers: () => [...WORKERS],
  watchedKeys: () => [],
  deadlineMs: (params) => 20_000 + 2 * intParam(params, 'workMs'),

  async setup(stores, _params, run) {
    if (!run.databaseUrl) throw new Error("pooled-advisory-lock needs the server's PostgreSQL URL to put PgBouncer in front of it");
    await createHoldsTable(stores);
    const pooler = await startPgbouncer({ databaseUrl: run.databaseUrl, poolMode: 'transaction', poolSize: POOL_SIZE });
    const port = Number(new URL(pooler.url).port);
    return {
      shared: { poolerUrl: pooler.url },
      reaches: [{ host: '127.0.0.1', port }],
      // The run's JSON and timeline name what stands between each worker and PostgreSQL: a
      // mark on each worker's lane, since the pooler is in the path of both.
      faults: WORKERS.map((workerId) => ({
        fault: 'pooling' as const,
        workerId,
        target: `${workerId}'s connection through PgBouncer, ${POOL_SIZE} server connection for ${WORKERS.join(' and ')}`,
        mechanism: MECHANISM.pgbouncerTransactionPool,
        node: null,
        peer: null,
        worker: null,
        slowdown: null,
      })),
      close: () => pooler.stop(),
    };
  },

  observe: observeHolds,

  async measure(stores) {
    return { maxConcurrentHolders: await maxConcurrentHolders(stores), backends: await backendsUsed(stores) };
  },

  expectations: () => [
    { id: 'one-holder', metric: 'maxConcurrentHolders', op: 'lte', value: 1, text: 'at most one worker runs the invoices at a time' },
  ],

  async work(ctx, variant) {
    const { job, end } = await pooledJob(ctx);
    try {
      ctx.emit({ type: 'job-fired' });
      await variant.run(job);
    } finally {
      await end();
    }
  },
});
