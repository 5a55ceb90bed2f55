import { defineMutant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineMutant<Admin>({
  id: 'optimistic-version-no-retry',
  of: 'optimistic-version',
  mistake: 'a write that matched no row is given up, not retried from a fresh read',
  failsAt: {},
  title: 'Optimistic, without the retry',
  summary: 'B\'s write matches no row because A wrote first, and B gives up: its sale is refused though it fits.',
  source: import.meta.url,
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

    const { stock, version } = await read();
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
      break; // the mistake: the conflict is reported, and the sale dropped instead of read again
    }
    admin.refuse(stock);
  },
});
