import { defineSteppedVariant } from '../../types.js';
import type { Admin } from '../admin.js';

/** The step of atomic-update that its mutants replace. */
export interface AtomicSteps {
  /** Takes the sale off the stock in one UPDATE (`read`: the stock the form showed); the stock left, or undefined when refused. */
  subtract(admin: Admin, read: number): Promise<number | undefined>;
}

export default defineSteppedVariant<Admin, AtomicSteps>({
  id: 'atomic-update',
  title: 'Atomic UPDATE: stock = stock - q where stock >= q',
  correct: true,
  summary:
    'The database subtracts the sale from the stock it holds at that moment, and refuses it in the same statement when it does not fit. What the admin read earlier no longer matters.',
  figures: 'final stock 5',
  source: import.meta.url,
  checkpoints: ['sale-done'],
  steps: {
    // One statement: PostgreSQL reads the current stock, checks it and writes under the row lock.
    subtract: (admin) => admin.sell('update products set stock = stock - $2 where id = $1 and stock >= $2 returning stock'),
  },
  async run(admin, { subtract }) {
    // The form still shows the stock, but the write does not trust it.
    const { rows } = await admin.pg.query<{ stock: number }>('select stock from products where id = $1', [admin.productId]);
    const read = rows[0]!.stock;
    admin.emit({ type: 'value-read', target: 'stock', value: read });
    await admin.think();

    const left = await subtract(admin, read);
    if (left === undefined) {
      // No row matched: the sale does not fit in what is left, so nothing is sold.
      admin.emit({ type: 'write-rejected', target: 'stock', value: `-${admin.quantity}`, reason: `fewer than ${admin.quantity} left` });
      return;
    }
    admin.emit({ type: 'write-accepted', target: 'stock', value: left });
  },
});
