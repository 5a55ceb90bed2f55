import { defineMutant } from '../../types.js';
import type { Admin } from '../admin.js';

export default defineMutant<Admin>({
  id: 'optimistic-version-no-check',
  of: 'optimistic-version',
  mistake: 'the UPDATE bumps the version but does not check it in its WHERE',
  failsAt: {},
  title: 'Optimistic, without the version in the WHERE',
  summary: 'The version is read and incremented but never compared: B\'s write matches the row anyway and overwrites A\'s sale.',
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

    let { stock, version } = await read();
    await admin.think();
    for (let attempt = 1; stock >= admin.quantity; attempt++) {
      if (attempt > 1) admin.emit({ type: 'retry-scheduled', reason: `version changed: write again from v${version}` });
      const left = stock - admin.quantity;
      // The mistake: the next version is written, the current one never compared: this matches the row whoever wrote since.
      const updated = await admin.pg.query(
        'update products set stock = $2, version = $3 + 1 where id = $1',
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
