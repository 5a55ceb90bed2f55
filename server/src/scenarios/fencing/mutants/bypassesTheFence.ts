// fenced, with one write that goes around the fenced path: before the fenced UPDATE, an
// autosave of the draft goes straight from the (stale) worker to the table, unguarded.
// (Before, not after: the fenced UPDATE is what tells the older holder its turn has come,
// so the newer holder's autosave never lands after the older one's.)
import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { defineMutant } from '../../types.js';
import type { DocumentJob } from '../documentJob.js';

export default defineMutant<DocumentJob>({
  id: 'bypasses-the-fence',
  of: 'fenced',
  mistake: 'a second UPDATE of the same row (an autosave of the content) goes straight to the table, without the guard',
  failsAt: {},
  title: 'A write around the fence',
  summary: "worker-1's plain UPDATE of its draft lands, and then its fenced write is refused: the row's trigger logs the stale one that landed.",
  source: import.meta.url,
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now();
    const fence = await acquireWithFence(job.redis, job.lockKey, job.fenceKey, job.token, job.leaseMs);
    if (fence === null) return job.skip();
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token, fence });
    await job.enter();

    try {
      await job.pause();
      await job.work();
      const content = `draft by ${job.workerId}`;
      // The mistake: the autosave goes by a path the fence does not guard, and nothing is said of it.
      await job.pg.query('update documents set content = $1, writer = $2 where id = 1', [content, job.workerId]);
      const updated = await job.write(
        'update documents set content = $1, fence = $2, writer = $3 where id = 1 and fence < $2',
        [content, fence, job.workerId],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
