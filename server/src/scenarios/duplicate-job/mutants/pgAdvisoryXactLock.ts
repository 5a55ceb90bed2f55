import { mutantOf } from '../../types.js';
import { doneLatch } from '../../../worker/latches.js';
import pgAdvisory from '../variants/pgAdvisory.js';

const triedLatch = (worker: string): string => `xact-tried:${worker}`;

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
      // Containers try in turn, as crons a few milliseconds apart do: two SELECTs that
      // happened to overlap by microseconds would turn one away, and the mistake would
      // show or not by the machine's scheduling.
      const before = job.workerIds[job.workerIds.indexOf(job.workerId) - 1];
      if (before) await job.waitFor(triedLatch(before), doneLatch(before));
      // The mistake: an xact lock ends with its transaction, here the SELECT itself.
      const { rows } = await job.pg.query<{ locked: boolean }>('select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as locked', [
        name,
      ]);
      job.signal(triedLatch(job.workerId));
      return rows[0]?.locked === true;
    },
  },
});
