import { defineVariant } from '../../types.js';
import type { PooledJob } from '../pooledJob.js';

export default defineVariant<PooledJob>({
  id: 'xact-lock',
  title: 'pg_advisory_xact_lock inside the transaction',
  correct: true,
  summary:
    'A transaction-level advisory lock, taken inside the transaction that does the work: PgBouncer keeps the server connection for that transaction alone, and PostgreSQL releases the lock at its end.',
  figures: 'max concurrent holders 1',
  source: import.meta.url,
  async run(job) {
    const shown = `pg_advisory_xact_lock(${job.lockName})`;
    job.emit({ type: 'lease-requested', key: shown });
    await job.pooled.query('begin');
    try {
      await job.pooled.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [job.lockName]);
      job.emit({ type: 'lease-acquired', key: shown, ttlMs: null });
      await job.work();
      await job.pooled.query('commit');
    } catch (error) {
      await job.pooled.query('rollback');
      throw error;
    }
    job.emit({ type: 'lease-released', key: shown, deleted: 1 }); // released by the commit
  },
});
