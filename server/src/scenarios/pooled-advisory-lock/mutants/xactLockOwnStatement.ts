// xact-lock's near-miss: the transaction-level lock is taken in a statement of its own, not
// inside the transaction that does the work.
import { defineMutant } from '../../types.js';
import type { PooledJob } from '../pooledJob.js';

export default defineMutant<PooledJob>({
  id: 'xact-lock-own-statement',
  of: 'xact-lock',
  mistake: 'takes pg_advisory_xact_lock in a statement of its own, outside a transaction, so it is released as soon as it is granted',
  failsAt: {},
  title: 'pg_advisory_xact_lock, no BEGIN',
  summary:
    'Without BEGIN the statement is its own transaction: the lock ends with it, before the work starts, and the other worker takes it at once.',
  source: import.meta.url,
  async run(job) {
    const shown = `pg_advisory_xact_lock(${job.lockName})`;
    job.emit({ type: 'lease-requested', key: shown });
    // The mistake: no transaction around the lock and the work.
    await job.pooled.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [job.lockName]);
    job.emit({ type: 'lease-acquired', key: shown, ttlMs: null });
    await job.work();
    job.emit({ type: 'lease-released', key: shown, deleted: 1 });
  },
});
