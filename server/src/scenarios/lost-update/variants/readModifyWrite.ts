import { defineVariant, intParam } from '../../types.js';
import type { Admin } from '../admin.js';
import { salesParam } from '../salesPlan.js';

export default defineVariant<Admin>({
  id: 'read-modify-write',
  title: 'Read, subtract in the app, write the number back',
  correct: false,
  summary:
    "Each admin reads the stock, subtracts its sale in the application and writes the result. A and B both read 10; A writes 7, then B writes 8 over it: A's sale is lost.",
  figures: 'stock 10, sales 3 and 2: final stock 8 (should be 5)',
  source: import.meta.url,
  checkpoints: ['sale-done'],
  // Every admin reads the initial stock, so only the last sale that fits it survives: with
  // one such sale at most, there is no second write to lose.
  expectedOtherwise(params) {
    const sales = salesParam(params);
    const fitting = sales.filter((q) => q <= intParam(params, 'initialStock')).length;
    if (fitting > 1) return null;
    return sales.length === 1
      ? 'one admin: no other sale to lose'
      : `${fitting === 0 ? 'no sale' : 'only one sale'} fits the stock the admins read: there is no second write to lose`;
  },
  async run(admin) {
    const { rows } = await admin.pg.query<{ stock: number }>('select stock from products where id = $1', [admin.productId]);
    const stock = rows[0]!.stock;
    admin.emit({ type: 'value-read', target: 'stock', value: stock });
    await admin.think(); // the admin fills in the sale; the others read the same stock meanwhile

    if (stock < admin.quantity) return admin.refuse(stock);
    const left = stock - admin.quantity; // computed from our read: stale once another admin has written
    await admin.pg.query('update products set stock = $2 where id = $1', [admin.productId, left]);
    admin.emit({ type: 'write-accepted', target: 'stock', value: left }); // overwrites whatever is there now
  },
});
