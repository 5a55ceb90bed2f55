// redlock-fenced, with the fence compared in application code: the worker reads the row's
// fence and compares it in JavaScript before its pause, then writes without the guard.
import { defineMutant } from '../../types.js';
import type { RedlockJob } from '../redlockJob.js';
import { acquireMajority, releaseAll } from '../variants/redlock.js';

export default defineMutant<RedlockJob>({
  id: 'fence-compared-in-app',
  of: 'redlock-fenced',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: 'Fence compared in the application',
  summary: "worker-1 checks the row's fence (0 < 1: fine), stops, and writes without the guard after worker-2 wrote fence 2.",
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
      // The mistake: the check is a read, and the write that follows does not repeat it.
      const { rows: row } = await job.pg.query<{ fence: number }>('select fence from documents where id = 1');
      if (row[0]!.fence >= fence) return;
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      await job.work();
      const content = `draft by ${job.workerId}`;
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
