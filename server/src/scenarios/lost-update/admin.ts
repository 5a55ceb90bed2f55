// What a lost-update variant works with: one admin process selling one quantity of the
// product, plus the choreography that makes the race the same on every run.
import { intParam, type WorkerContext } from '../types.js';
import { adminId, adminIndex, quantityOf } from './salesPlan.js';
import { doneLatch } from '../../worker/latches.js';

/** The one product row every admin sells from. */
export const PRODUCT_ID = 1;
/** How often a holder asks PostgreSQL whether the next admin waits on its lock, in ms. */
const POLL_MS = 5;

export interface Admin extends WorkerContext {
  productId: number;
  /** This admin's sale, in units. */
  quantity: number;
  /**
   * Between the admin's read and its write: waits until the later admins have read (or
   * queue on our row lock) and the earlier ones are done, then thinks for thinkMs.
   */
  think(): Promise<void>;
  /** Reports a sale that does not fit in the stock read. */
  refuse(stock: number): void;
  /**
   * Runs an UPDATE of the product that returns its stock ($1 the product, $2 this sale's
   * quantity, then `more`); the stock left, or undefined when it matched no row.
   */
  sell(sql: string, ...more: unknown[]): Promise<number | undefined>;
}

/** Names this admin's PostgreSQL session, so the database can say who wrote and who waits. */
export async function nameSession(ctx: WorkerContext): Promise<void> {
  await ctx.pg.query("select set_config('application_name', current_schema() || ' ' || $1, false)", [ctx.workerId]);
}

/** Backend pid of every admin of this run, by worker id; call once every session is named. */
export async function adminBackends(ctx: WorkerContext): Promise<Map<string, number>> {
  const { rows } = await ctx.pg.query<{ admin: string; pid: number }>(
    `select split_part(application_name, ' ', 2) as admin, pid from pg_stat_activity
     where starts_with(application_name, current_schema() || ' ')`,
  );
  return new Map(rows.map((r) => [r.admin, r.pid]));
}

/**
 * Resolves once `later` has read, or PostgreSQL shows it blocked on a lock this session
 * holds. Its latch wait is pushed to `pending`: it must settle before this process exits.
 */
async function readOrBlockedByMe(
  ctx: WorkerContext,
  later: string,
  pid: number | undefined,
  pending: Promise<unknown>[],
): Promise<'read' | 'blocked'> {
  let read = false;
  const latch = ctx.waitFor(`read:${later}`, doneLatch(later)).then(() => {
    read = true;
  });
  pending.push(latch);
  for (;;) {
    if (read) return 'read';
    if (pid !== undefined) {
      const { rows } = await ctx.pg.query<{ blocked: boolean }>('select pg_backend_pid() = any(pg_blocking_pids($1)) as blocked', [pid]);
      if (rows[0]?.blocked) return 'blocked';
    }
    await Promise.race([latch, ctx.sleep(POLL_MS)]);
  }
}

/**
 * Gives a worker context the admin's sale and its place in the choreography. `settle`
 * resolves once every latch the admin waited on is answered: the server replies to a
 * wait even after it no longer matters, and a reply to an exited process breaks the run.
 */
export function createAdmin(ctx: WorkerContext, backends: Map<string, number>): { admin: Admin; settle(): Promise<void> } {
  const index = adminIndex(ctx.workerId);
  const thinkMs = intParam(ctx.params, 'thinkMs');
  const quantity = quantityOf(ctx.params, ctx.workerId);
  const pending: Promise<unknown>[] = [];
  let thought = false;
  const admin: Admin = {
    ...ctx,
    productId: PRODUCT_ID,
    quantity,
    async think() {
      if (thought) return; // one think per sale: a retry writes at once
      thought = true;
      ctx.signal(`read:${ctx.workerId}`);
      // Every later admin reads before anyone writes; one blocked on our row lock cannot
      // read yet, and the ones behind it have not started: stop waiting there.
      for (const later of ctx.workerIds.slice(index + 1)) {
        if ((await readOrBlockedByMe(ctx, later, backends.get(later), pending)) === 'read') continue;
        ctx.emit({ type: 'note', text: `PostgreSQL: ${later} waits for our row lock` });
        break;
      }
      if (index > 0) await ctx.waitFor(doneLatch(adminId(index - 1))); // write in list order
      // Thinking after our turn comes keeps writes thinkMs apart: the row lane shows each value.
      await ctx.sleep(thinkMs);
    },
    async sell(sql, ...more) {
      const updated = await ctx.pg.query<{ stock: number }>(sql, [PRODUCT_ID, quantity, ...more]);
      return updated.rows[0]?.stock;
    },
    refuse(stock) {
      ctx.emit({ type: 'job-skipped', reason: `sale of ${quantity} refused: ${stock} in stock` });
    },
  };
  return { admin, settle: async () => void (await Promise.all(pending)) };
}
