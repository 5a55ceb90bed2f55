import { defineMutant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineMutant<Admin>({
  id: 'select-for-update-without-lock',
  of: 'select-for-update',
  mistake: 'the SELECT inside the transaction has no FOR UPDATE',
  failsAt: {},
  title: 'A transaction, but a plain SELECT',
  summary: 'The transaction alone locks nothing: B reads 10 while A thinks, and B\'s 8 overwrites A\'s 7.',
  source: import.meta.url,
  async run(admin) {
    await admin.pg.query('begin');
    admin.emit({ type: 'wait-started', reason: 'row lock' });
    // Blocks while another transaction holds the row's lock; returns the committed stock.
    const { rows } = await admin.pg.query<{ stock: number }>(
      'select stock from products where id = $1', // the mistake: no FOR UPDATE, so nothing waits
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
