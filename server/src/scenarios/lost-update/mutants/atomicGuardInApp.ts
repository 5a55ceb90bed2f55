import { defineMutant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineMutant<Admin>({
  id: 'atomic-update-guard-in-app',
  of: 'atomic-update',
  mistake: 'the stock check is made in the application, on the stock read before thinking, not in the UPDATE',
  failsAt: { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  title: 'Atomic UPDATE, the guard checked on the earlier read',
  summary: 'Both admins read 5 and both sales fit what they read; the database subtracts both: the stock ends below zero.',
  source: import.meta.url,
  async run(admin) {
    const { rows } = await admin.pg.query<{ stock: number }>('select stock from products where id = $1', [admin.productId]);
    const stock = rows[0]!.stock;
    admin.emit({ type: 'value-read', target: 'stock', value: stock });
    await admin.think();

    // The mistake: the guard trusts the stock read earlier, which another admin has changed since.
    const updated = await admin.pg.query<{ stock: number }>(
      'update products set stock = stock - $2 where id = $1 and $3::int >= $2 returning stock',
      [admin.productId, admin.quantity, stock],
    );
    const left = updated.rows[0]?.stock;
    if (left === undefined) {
      admin.emit({ type: 'write-rejected', target: 'stock', value: `-${admin.quantity}`, reason: `fewer than ${admin.quantity} left` });
      return;
    }
    admin.emit({ type: 'write-accepted', target: 'stock', value: left });
  },
});
