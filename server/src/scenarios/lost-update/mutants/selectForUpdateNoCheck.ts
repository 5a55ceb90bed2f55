import { defineMutant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineMutant<Admin>({
  id: 'select-for-update-no-check',
  of: 'select-for-update',
  mistake: 'the locked read is never compared with the sale: no `stock >= q` check',
  failsAt: { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  title: 'SELECT … FOR UPDATE without the stock check',
  summary: 'B waits for A and reads the right stock (1), then sells 3 from it anyway: the stock ends below zero.',
  source: import.meta.url,
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

    if (stock < 0) { // the mistake: should be stock < admin.quantity; a sale larger than the stock goes through
      await admin.pg.query('rollback'); // releases the lock; nothing was written
      return admin.refuse(stock);
    }
    const left = stock - admin.quantity;
    await admin.pg.query('update products set stock = $2 where id = $1', [admin.productId, left]);
    await admin.pg.query('commit'); // the lock is released here and the next admin's read returns
    admin.emit({ type: 'write-accepted', target: 'stock', value: left });
  },
});
