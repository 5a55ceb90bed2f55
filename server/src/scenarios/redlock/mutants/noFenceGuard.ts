// redlock-fenced, with the fence carried into the row but never compared: the UPDATE has
// no `and fence < $3`, so the stale write lands with its old number.
import { defineMutant } from '../../types.js';
import type { RedlockJob } from '../redlockJob.js';
import { acquireMajority, releaseAll } from '../variants/redlock.js';

export default defineMutant<RedlockJob>({
  id: 'no-fence-guard',
  of: 'redlock-fenced',
  mistake: 'writes the fence into the row without `where fence < $new`: nothing compares it',
  failsAt: {},
  title: 'Redlock and a fence that nothing compares',
  summary: "The sequence hands out the right numbers and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
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
      // The mistake: the guard `and fence < $3` is missing.
      const updated = await job.write(
        'update documents set content = $1, writer = $2, fence = $3 where id = 1',
        [content, job.workerId, fence],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await releaseAll(job) });
    }
  },
});
