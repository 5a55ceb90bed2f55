import { defineMutant } from '../../types.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';

export default defineMutant<NightlyJob>({
  id: 'pg-advisory-xact-lock',
  of: 'pg-advisory',
  mistake: 'takes the transaction-level lock (pg_try_advisory_xact_lock) outside a transaction',
  failsAt: {},
  title: 'PostgreSQL advisory lock, transaction-level, with no transaction',
  summary: 'The SELECT is its own transaction: the lock is gone as soon as it returns, so every container gets it in turn and sends the report.',
  source: import.meta.url,
  checkpoints: ['working'],
  async run(job) {
    // Advisory locks are database-wide: the name carries the run, the report and the night.
    const name = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const shown = `pg_advisory(${LOCK_KEY}:${job.entity}:${job.date})`;
    job.emit({ type: 'lease-requested', key: shown });
    const { rows } = await job.pg.query<{ locked: boolean }>(
      // The mistake: an xact lock ends with its transaction, here the SELECT itself.
      'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as locked',
      [name],
    );
    if (!rows[0]?.locked) return job.skip(shown, null);
    job.emit({ type: 'lease-acquired', key: shown, ttlMs: null }); // no expiry: held until unlock or session end

    try {
      await job.sendReport();
    } finally {
      const released = await job.pg.query<{ ok: boolean }>('select pg_advisory_unlock(hashtextextended($1, 0)) as ok', [name]);
      job.emit({ type: 'lease-released', key: shown, deleted: released.rows[0]?.ok ? 1 : 0 });
    }
  },
});
