// atomic-update, with the guard checked on the stock read before thinking.
import { mutantOf } from '../../types.js';
import atomicUpdate from '../variants/atomicUpdate.js';

export default mutantOf(atomicUpdate, {
  id: 'atomic-update-guard-in-app',
  mistake: 'the stock check is made in the application, on the stock read before thinking, not in the UPDATE',
  failsAt: { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  title: 'Atomic UPDATE, the guard checked on the earlier read',
  summary: 'Both admins read 5 and both sales fit what they read; the database subtracts both: the stock ends below zero.',
  source: import.meta.url,
  steps: {
    // The mistake: the guard trusts the stock read earlier, which another admin has changed since.
    subtract: (admin, read) => admin.sell('update products set stock = stock - $2 where id = $1 and $3::int >= $2 returning stock', read),
  },
});
