// The run's ground truth in PostgreSQL: the product row, and a log of every UPDATE of it
// written by a trigger, so the verdict never relies on what an admin says it did.
import type { RunStores } from '../types.js';
import { PRODUCT_ID } from './admin.js';

/** Creates the product row and the trigger that logs every UPDATE statement on it. */
export async function createProducts(stores: RunStores, initialStock: number): Promise<void> {
  await stores.sql(`create table products (
    id int primary key,
    stock int not null,
    version int not null default 1)`);
  await stores.sql('insert into products (id, stock) values ($1, $2)', [PRODUCT_ID, initialStock]);
  // One row per UPDATE statement, even one whose WHERE matched nothing (changed = 0).
  await stores.sql(`create table stock_writes (
    id bigserial primary key,
    admin text not null,
    changed int not null,
    stock_after int,
    at timestamptz not null default clock_timestamp())`);
  // A statement-level trigger fires for every UPDATE, also one that changes no row; the
  // session's application_name ("<schema> admin-k") says which admin sent it.
  await stores.sql(`create function log_stock_write() returns trigger
    language plpgsql set search_path from current as $$
    begin
      insert into stock_writes (admin, changed, stock_after)
      select split_part(current_setting('application_name'), ' ', 2),
             (select count(*) from changed),
             (select stock from products where id = ${PRODUCT_ID});
      return null;
    end $$`);
  await stores.sql(`create trigger stock_writes after update on products
    referencing new table as changed for each statement execute function log_stock_write()`);
}

/** The row as the timeline shows it, e.g. "10 (v1)", and who waits on its lock right now. */
export async function observeProducts(stores: RunStores): Promise<Record<string, string | null>> {
  const row = await stores.sql<{ stock: number; version: number }>('select stock, version from products where id = $1', [PRODUCT_ID]);
  const waits = await stores.sql<{ waiter: string; holders: string | null }>(
    `select split_part(w.application_name, ' ', 2) as waiter,
       (select string_agg(split_part(h.application_name, ' ', 2), ', ') from pg_stat_activity h
        where h.pid = any(pg_blocking_pids(w.pid))) as holders
     from pg_stat_activity w
     where starts_with(w.application_name, current_schema() || ' ') and w.wait_event_type = 'Lock'
     order by 1`,
  );
  const r = row.rows[0];
  return {
    stock: r ? `${r.stock} (v${r.version})` : null,
    'row lock': waits.rows.length ? waits.rows.map((w) => `${w.waiter} waits for ${w.holders ?? '?'}`).join('; ') : 'no one waits',
  };
}

export interface ProductsTruth {
  stock: number;
  /** UPDATEs that changed nothing and that the same admin followed with another UPDATE. */
  retries: number;
  /** Admins none of whose UPDATEs changed the row. */
  refused: number;
}

/** Reads the verdict's numbers from the row and the trigger's log. */
export async function measureProducts(stores: RunStores, admins: string[]): Promise<ProductsTruth> {
  const row = await stores.sql<{ stock: number }>('select stock from products where id = $1', [PRODUCT_ID]);
  const { rows: writes } = await stores.sql<{ admin: string; changed: number }>('select admin, changed from stock_writes order by id');
  const retries = writes.filter((w, i) => w.changed === 0 && writes.slice(i + 1).some((l) => l.admin === w.admin)).length;
  const sold = new Set(writes.filter((w) => w.changed > 0).map((w) => w.admin));
  const stock = row.rows[0]?.stock;
  if (stock === undefined) throw new Error('the product row is gone');
  return { stock, retries, refused: admins.filter((a) => !sold.has(a)).length };
}
