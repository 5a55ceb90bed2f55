import { defineSteppedVariant } from '../../types.js';
import type { Admin } from '../admin.js';

/** The steps of select-for-update that its mutants replace. */
export interface LockedReadSteps {
  /** Reads the stock inside the transaction. */
  read(admin: Admin): Promise<number>;
  /** Whether the sale fits the stock read. */
  fits(admin: Admin, stock: number): boolean;
}

export default defineSteppedVariant<Admin, LockedReadSteps>({
  id: 'select-for-update',
  title: 'SELECT … FOR UPDATE in a transaction',
  correct: true,
  summary:
    "Each admin locks the row as it reads it and keeps the lock until it commits. B's read waits in PostgreSQL until A has committed, so B reads 7, not 10.",
  figures: 'final stock 5; the later admin waits on the row lock',
  source: import.meta.url,
  checkpoints: ['sale-done'],
  steps: {
    // Blocks while another transaction holds the row's lock; returns the committed stock.
    read: async (admin) =>
      (await admin.pg.query<{ stock: number }>('select stock from products where id = $1 for update', [admin.productId])).rows[0]!.stock,
    fits: (admin, stock) => stock >= admin.quantity,
  },
  async run(admin, { read, fits }) {
    await admin.pg.query('begin');
    admin.emit({ type: 'wait-started', reason: 'row lock' });
    const stock = await read(admin);
    admin.emit({ type: 'wait-finished', reason: 'row lock' });
    admin.emit({ type: 'value-read', target: 'stock', value: stock });
    await admin.think(); // still holding the lock: the next admin waits instead of reading a stale stock

    if (!fits(admin, stock)) {
      await admin.pg.query('rollback'); // releases the lock; nothing was written
      return admin.refuse(stock);
    }
    const left = stock - admin.quantity;
    await admin.pg.query('update products set stock = $2 where id = $1', [admin.productId, left]);
    await admin.pg.query('commit'); // the lock is released here and the next admin's read returns
    admin.emit({ type: 'write-accepted', target: 'stock', value: left });
  },
});
