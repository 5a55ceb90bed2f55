import { defineSteppedVariant } from '../../types.js';
import { lockForgetsTheJob, nobodyLeftToRetry } from '../expectedVerdicts.js';
import { LOCK_KEY, type NightlyJob } from '../nightlyJob.js';

/** The step of pg-advisory that its mutant replaces: trying the lock by its name. */
export interface AdvisorySteps {
  tryLock(job: NightlyJob, name: string): Promise<boolean>;
}

export default defineSteppedVariant<NightlyJob, AdvisorySteps>({
  id: 'pg-advisory',
  title: 'PostgreSQL advisory lock',
  correct: true,
  summary:
    "pg_try_advisory_lock on a key made of the report and the night: one container gets it, the others skip. The lock lives as long as the holder's database session.",
  figures: 'e-mails 1',
  source: import.meta.url,
  expectedOtherwise: (params) => lockForgetsTheJob(params) ?? nobodyLeftToRetry(params),
  checkpoints: ['working', 'report-sent'],
  steps: {
    async tryLock(job, name) {
      const { rows } = await job.pg.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [name]);
      return rows[0]?.locked === true;
    },
  },
  async run(job, { tryLock }) {
    // Advisory locks are database-wide: the name carries the run, the report and the night.
    const name = job.key(`${LOCK_KEY}:${job.entity}:${job.date}`);
    const shown = `pg_advisory(${LOCK_KEY}:${job.entity}:${job.date})`;
    job.emit({ type: 'lease-requested', key: shown });
    if (!(await tryLock(job, name))) return job.skip(shown, null);
    job.emit({ type: 'lease-acquired', key: shown, ttlMs: null }); // no expiry: held until unlock or session end

    try {
      await job.sendReport();
    } finally {
      const released = await job.pg.query<{ ok: boolean }>('select pg_advisory_unlock(hashtextextended($1, 0)) as ok', [name]);
      job.emit({ type: 'lease-released', key: shown, deleted: released.rows[0]?.ok ? 1 : 0 });
    }
  },
});
