import { defineVariant } from '../../types.js';
import type { PooledJob } from '../pooledJob.js';

export default defineVariant<PooledJob>({
  id: 'session-lock',
  title: 'pg_advisory_lock through the pooler',
  correct: false,
  summary:
    'A session-level advisory lock, taken through PgBouncer in transaction mode: both workers are handed the same server connection, and the lock, re-entrant within a session, is granted to both.',
  figures: 'max concurrent holders 2 (should be 1), 1 backend',
  source: import.meta.url,
  async run(job) {
    const shown = `pg_advisory_lock(${job.lockName})`;
    job.emit({ type: 'lease-requested', key: shown });
    // The session is PgBouncer's server connection, lent to whichever client sends next.
    await job.pooled.query('select pg_advisory_lock(hashtextextended($1, 0))', [job.lockName]);
    job.emit({ type: 'lease-acquired', key: shown, ttlMs: null });
    try {
      await job.work();
    } finally {
      const released = await job.pooled.query<{ ok: boolean }>('select pg_advisory_unlock(hashtextextended($1, 0)) as ok', [job.lockName]);
      job.emit({ type: 'lease-released', key: shown, deleted: released.rows[0]?.ok ? 1 : 0 });
    }
  },
});
