import { defineVariant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineVariant<Admin>({
  id: 'optimistic-version',
  title: 'Optimistic: write only if the version is unchanged, else retry',
  correct: true,
  summary:
    'Each admin reads the stock with its version and writes only where the version is still the one it read. B\'s first write matches no row because A wrote first; B reads again (7, v2) and writes 5.',
  figures: 'final stock 5, retries 1',
  source: import.meta.url,
  checkpoints: ['sale-done'],
  async run(admin) {
    const read = async () => {
      const { rows } = await admin.pg.query<{ stock: number; version: number }>(
        'select stock, version from products where id = $1',
        [admin.productId],
      );
      const row = rows[0]!;
      admin.emit({ type: 'value-read', target: 'stock', value: row.stock, version: row.version });
      return row;
    };

    let { stock, version } = await read();
    await admin.think();
    for (let attempt = 1; stock >= admin.quantity; attempt++) {
      if (attempt > 1) admin.emit({ type: 'retry-scheduled', reason: `version changed: write again from v${version}` });
      const left = stock - admin.quantity;
      // Matches no row if anyone wrote since our read: the version says so, not a clock.
      const updated = await admin.pg.query(
        'update products set stock = $2, version = version + 1 where id = $1 and version = $3',
        [admin.productId, left, version],
      );
      if (updated.rowCount === 1) {
        admin.emit({ type: 'write-accepted', target: 'stock', value: left });
        return;
      }
      admin.emit({ type: 'write-rejected', target: 'stock', value: left, reason: `v${version} is gone: another admin wrote first` });
      ({ stock, version } = await read()); // start over from what the row holds now
    }
    admin.refuse(stock);
  },
});
