// select-for-update, with a plain SELECT in the transaction.
import { mutantOf } from '../../types.js';
import selectForUpdate from '../variants/selectForUpdate.js';

export default mutantOf(selectForUpdate, {
  id: 'select-for-update-without-lock',
  mistake: 'the SELECT inside the transaction has no FOR UPDATE',
  failsAt: {},
  title: 'A transaction, but a plain SELECT',
  summary: "The transaction alone locks nothing: B reads 10 while A thinks, and B's 8 overwrites A's 7.",
  source: import.meta.url,
  steps: {
    // The mistake: no FOR UPDATE, so nothing waits.
    read: async (admin) =>
      (await admin.pg.query<{ stock: number }>('select stock from products where id = $1', [admin.productId])).rows[0]!.stock,
  },
});
