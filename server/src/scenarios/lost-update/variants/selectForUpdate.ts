import { defineVariant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineVariant<Admin>({
  id: 'select-for-update',
  title: 'SELECT … FOR UPDATE in a transaction',
  correct: true,
  summary:
    'Each admin locks the row as it reads it and keeps the lock until it commits. B\'s read waits in PostgreSQL until A has committed, so B reads 7, not 10.',
  figures: 'final stock 5; the later admin waits on the row lock',
  source: import.meta.url,
  checkpoints: ['sale-done'],
  async run(admin) {
    await admin.pg.query('begin');
    admin.emit({ type: 'wait-started', reason: 'row lock' });
    // Blocks while another transaction holds the row's lock; returns the committed stock.
    const { rows } = await admin.pg.query<{ stock: number }>(
      'select stock from products where id = $1 for update',
      [admin.productId],
    );
    admin.emit({ type: 'wait-finished', reason: 'row lock' });
    const stock = rows[0]!.stock;
    admin.emit({ type: 'value-read', target: 'stock', value: stock });
    await admin.think(); // still holding the lock: the next admin waits instead of reading a stale stock

    if (stock < admin.quantity) {
      await admin.pg.query('rollback'); // releases the lock; nothing was written
      return admin.refuse(stock);
    }
    const left = stock - admin.quantity;
    await admin.pg.query('update products set stock = $2 where id = $1', [admin.productId, left]);
    await admin.pg.query('commit'); // the lock is released here and the next admin's read returns
    admin.emit({ type: 'write-accepted', target: 'stock', value: left });
  },
});
