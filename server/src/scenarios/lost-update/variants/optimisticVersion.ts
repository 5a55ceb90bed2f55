import { defineSteppedVariant } from '../../types.js';
import type { Admin } from '../admin.js';

/** The product row as the admin read it. */
interface Versioned {
  stock: number;
  version: number;
}

/** The steps of optimistic-version that its mutants replace. */
export interface OptimisticSteps {
  /** Writes the sale's stock where the row still has `version`; true when it did. */
  write(admin: Admin, left: number, version: number): Promise<boolean>;
  /** After a write that matched no row: the row to try again from, or null to give up. */
  again(admin: Admin): Promise<Versioned | null>;
}

async function readVersioned(admin: Admin): Promise<Versioned> {
  const { rows } = await admin.pg.query<Versioned>('select stock, version from products where id = $1', [admin.productId]);
  const row = rows[0]!;
  admin.emit({ type: 'value-read', target: 'stock', value: row.stock, version: row.version });
  return row;
}

export default defineSteppedVariant<Admin, OptimisticSteps>({
  id: 'optimistic-version',
  title: 'Optimistic: write only if the version is unchanged, else retry',
  correct: true,
  summary:
    "Each admin reads the stock with its version and writes only where the version is still the one it read. B's first write matches no row because A wrote first; B reads again (7, v2) and writes 5.",
  figures: 'final stock 5, retries 1',
  source: import.meta.url,
  checkpoints: ['sale-done'],
  steps: {
    // Matches no row if anyone wrote since our read: the version says so, not a clock.
    write: async (admin, left, version) =>
      (
        await admin.pg.query('update products set stock = $2, version = version + 1 where id = $1 and version = $3', [
          admin.productId,
          left,
          version,
        ])
      ).rowCount === 1,
    again: readVersioned, // start over from what the row holds now
  },
  async run(admin, { write, again }) {
    let { stock, version } = await readVersioned(admin);
    await admin.think();
    for (let attempt = 1; stock >= admin.quantity; attempt++) {
      if (attempt > 1) admin.emit({ type: 'retry-scheduled', reason: `version changed: write again from v${version}` });
      const left = stock - admin.quantity;
      if (await write(admin, left, version)) return admin.emit({ type: 'write-accepted', target: 'stock', value: left });
      admin.emit({ type: 'write-rejected', target: 'stock', value: left, reason: `v${version} is gone: another admin wrote first` });
      const row = await again(admin);
      if (!row) break;
      ({ stock, version } = row);
    }
    admin.refuse(stock);
  },
});
