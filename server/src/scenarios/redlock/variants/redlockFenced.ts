import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineVariant } from '../../types.js';
import type { RedlockJob } from '../redlockJob.js';
import { acquireMajority, releaseAll } from './redlock.js';

export default defineVariant<RedlockJob>({
  id: 'redlock-fenced',
  title: 'Redlock plus a fence checked by the database',
  correct: true,
  summary:
    "The same Redlock and the same stall, but every grant takes a number from a PostgreSQL sequence and the row takes a write only from a number higher than the one it holds. Both workers still believe they hold the lock; worker-1's stale write is refused.",
  figures: 'the same two holders; stale writes accepted 0 (refused by the row\'s fence)',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const lock = await acquireMajority(job); // the Redlock of the `redlock` variant
    if (!lock) return job.skip('no majority of the nodes took the lock');
    // Five independent nodes share no counter, so the fence comes from the database that
    // checks it: one sequence, one order. (Taken after the grant: a pause right between
    // the two could still hand the older holder the higher number.)
    const { rows } = await job.pg.query<{ fence: number }>("select nextval('fences')::int as fence");
    const fence = rows[0]!.fence;
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: lock.validityMs, fromMs: lock.fromMs, token: job.token, fence });
    await job.enter();

    try {
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      await job.work();
      const content = `draft by ${job.workerId}`;
      // The database is the judge: a write with an older fence than the row's updates nothing.
      const updated = await job.write(
        'update documents set content = $1, writer = $2, fence = $3 where id = 1 and fence < $3',
        [content, job.workerId, fence],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await releaseAll(job) });
    }
  },
});
