// select-for-update, with the locked read never compared with the sale.
import { mutantOf } from '../../types.js';
import selectForUpdate from '../variants/selectForUpdate.js';

export default mutantOf(selectForUpdate, {
  id: 'select-for-update-no-check',
  mistake: 'the locked read is never compared with the sale: no `stock >= q` check',
  failsAt: { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  title: 'SELECT … FOR UPDATE without the stock check',
  summary: 'B waits for A and reads the right stock (1), then sells 3 from it anyway: the stock ends below zero.',
  source: import.meta.url,
  steps: {
    fits: (_admin, stock) => stock >= 0, // the mistake: should be stock >= admin.quantity; a sale larger than the stock goes through
  },
});
