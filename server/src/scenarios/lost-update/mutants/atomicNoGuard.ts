// atomic-update, without the guard in the UPDATE.
import { mutantOf } from '../../types.js';
import atomicUpdate from '../variants/atomicUpdate.js';

export default mutantOf(atomicUpdate, {
  id: 'atomic-update-no-guard',
  mistake: 'the UPDATE subtracts in the database but has no `stock >= q` guard',
  failsAt: { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  title: 'Atomic UPDATE without the stock guard',
  summary: 'No sale is lost, but none is refused either: two sales larger than the stock take it below zero.',
  source: import.meta.url,
  steps: {
    // The mistake: atomic, but nothing refuses a sale that does not fit: the stock goes negative.
    subtract: (admin) => admin.sell('update products set stock = stock - $2 where id = $1 returning stock'),
  },
});
