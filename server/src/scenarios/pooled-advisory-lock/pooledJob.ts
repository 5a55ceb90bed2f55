// What a pooled-advisory-lock variant works with: a connection of its own through the run's
// PgBouncer (transaction pooling, one server connection), the lock's name, and the work the
// lock guards. The work records its start and end in `holds` over the worker's direct
// connection, stamped by PostgreSQL (clock_timestamp()), with the backend the pooler gave it.
// worker-2 asks for the lock once worker-1 holds it; worker-1 works until worker-2 holds it
// too or workMs has passed: an overlap, when the lock allows one, is the same on every run.
import pg from 'pg';
import { intParam, type WorkerContext } from '../types.js';

/** The lock's name (under the run's prefix: advisory locks are database-wide). */
export const LOCK_NAME = 'lock:invoice-run';
/** How long worker-2 works once it holds the lock, in ms. */
export const SECOND_WORK_MS = 100;

const FIRST = 'worker-1';
const holding = (worker: string): string => `holding:${worker}`;

export interface PooledJob extends WorkerContext {
  /** This worker's own connection through the run's PgBouncer. */
  pooled: pg.Client;
  /** The lock's name, for hashtextextended($1, 0). */
  lockName: string;
  /** The work the lock guards: runs the invoice batch, recorded in holds. */
  work(): Promise<void>;
}

/** Gives a worker context its pooled connection and the guarded work; `end` closes the connection. */
export async function pooledJob(ctx: WorkerContext): Promise<{ job: PooledJob; end(): Promise<void> }> {
  const pooled = new pg.Client({ connectionString: String(ctx.shared.poolerUrl) });
  await pooled.connect();
  if (ctx.workerId !== FIRST) await ctx.waitFor(holding(FIRST));
  const job: PooledJob = { ...ctx, pooled, lockName: ctx.key(LOCK_NAME), work: () => work(ctx, pooled) };
  return { job, end: () => pooled.end() };
}

async function work(ctx: WorkerContext, pooled: pg.Client): Promise<void> {
  const backend = await pooled.query<{ pid: number }>('select pg_backend_pid() as pid');
  const pid = backend.rows[0]!.pid;
  const { rows } = await ctx.pg.query<{ id: number }>('insert into holds (worker, backend_pid) values ($1, $2) returning id', [
    ctx.workerId,
    pid,
  ]);
  ctx.emit({ type: 'work-started', label: `run the invoices (backend ${pid})` });
  ctx.signal(holding(ctx.workerId));
  if (ctx.workerId === FIRST) {
    const workMs = intParam(ctx.params, 'workMs');
    await Promise.race([ctx.waitFor(...ctx.workerIds.filter((w) => w !== FIRST).map(holding)), ctx.sleep(workMs)]);
  } else {
    await ctx.sleep(SECOND_WORK_MS);
  }
  await ctx.pg.query('update holds set finished_at = clock_timestamp() where id = $1', [rows[0]!.id]);
  ctx.emit({ type: 'work-finished', label: `run the invoices (backend ${pid})` });
}
