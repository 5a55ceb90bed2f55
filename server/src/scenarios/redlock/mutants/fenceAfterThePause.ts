// redlock-fenced, with the fence number taken when the worker is about to write, after its
// pause, instead of right after the grant: the older holder gets the higher number.
import { defineMutant } from '../../types.js';
import type { RedlockJob } from '../redlockJob.js';
import { acquireMajority, releaseAll } from '../variants/redlock.js';

export default defineMutant<RedlockJob>({
  id: 'fence-after-the-pause',
  of: 'redlock-fenced',
  mistake: 'takes the fence from the sequence after the pause, not right after the grant',
  failsAt: {},
  title: 'Fence taken late',
  summary: "worker-1 takes its number only after its stop, when worker-2 already has fence 1: worker-1's stale write carries fence 2 and the guard lets it in.",
  source: import.meta.url,
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const lock = await acquireMajority(job); // the Redlock of the `redlock` variant
    if (!lock) return job.skip('no majority of the nodes took the lock');
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: lock.validityMs, fromMs: lock.fromMs, token: job.token });
    await job.enter();

    try {
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      // The mistake: the number is taken now, after the stop, not right after the grant.
      const { rows } = await job.pg.query<{ fence: number }>("select nextval('fences')::int as fence");
      const fence = rows[0]!.fence;
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
