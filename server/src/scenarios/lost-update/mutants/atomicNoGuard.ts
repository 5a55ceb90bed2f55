import { defineMutant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineMutant<Admin>({
  id: 'atomic-update-no-guard',
  of: 'atomic-update',
  mistake: 'the UPDATE subtracts in the database but has no `stock >= q` guard',
  failsAt: { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  title: 'Atomic UPDATE without the stock guard',
  summary: 'No sale is lost, but none is refused either: two sales larger than the stock take it below zero.',
  source: import.meta.url,
  async run(admin) {
    const { rows } = await admin.pg.query<{ stock: number }>('select stock from products where id = $1', [admin.productId]);
    admin.emit({ type: 'value-read', target: 'stock', value: rows[0]!.stock });
    await admin.think();

    // The mistake: atomic, but nothing refuses a sale that does not fit: the stock goes negative.
    const updated = await admin.pg.query<{ stock: number }>(
      'update products set stock = stock - $2 where id = $1 returning stock',
      [admin.productId, admin.quantity],
    );
    const left = updated.rows[0]?.stock;
    if (left === undefined) {
      admin.emit({ type: 'write-rejected', target: 'stock', value: `-${admin.quantity}`, reason: `fewer than ${admin.quantity} left` });
      return;
    }
    admin.emit({ type: 'write-accepted', target: 'stock', value: left });
  },
});
