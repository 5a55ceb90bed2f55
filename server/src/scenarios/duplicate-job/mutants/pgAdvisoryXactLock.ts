import { mutantOf } from '../../types.js';
import pgAdvisory from '../variants/pgAdvisory.js';

export default mutantOf(pgAdvisory, {
  id: 'pg-advisory-xact-lock',
  mistake: 'takes the transaction-level lock (pg_try_advisory_xact_lock) outside a transaction',
  failsAt: {},
  title: 'PostgreSQL advisory lock, transaction-level, with no transaction',
  summary:
    'The SELECT is its own transaction: the lock is gone as soon as it returns, so every container gets it in turn and sends the report.',
  source: import.meta.url,
  checkpoints: ['working'],
  steps: {
    async tryLock(job, name) {
      // The mistake: an xact lock ends with its transaction, here the SELECT itself.
      const { rows } = await job.pg.query<{ locked: boolean }>('select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as locked', [
        name,
      ]);
      return rows[0]?.locked === true;
    },
  },
});
