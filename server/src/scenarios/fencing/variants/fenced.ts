import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineVariant } from '../../types.js';
import type { DocumentJob } from '../documentJob.js';

export default defineVariant<DocumentJob>({
  id: 'fenced',
  title: 'Fencing token checked by the database',
  correct: true,
  summary:
    'Every grant of the lease comes with a higher fence number (INCR), and the row takes a write only from a fence higher than the one it holds. worker-1 still overlaps worker-2, but its stale write is rejected.',
  figures: 'max concurrent holders 2, stale writes rejected 1, fence 2, last writer worker-2',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now(); // the lease counts from the request, not from its reply
    // The lease and its fence number in one atomic step: numbers follow the order of grants.
    const fence = await acquireWithFence(job.redis, job.lockKey, job.fenceKey, job.token, job.leaseMs);
    if (fence === null) return job.skip();
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token, fence });
    await job.enter();

    try {
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      await job.work();
      const content = `draft by ${job.workerId}`;
      // The database is the judge: a write from an older grant than the last one it took updates nothing.
      const updated = await job.write(
        'update documents set content = $1, fence = $2, writer = $3 where id = 1 and fence < $2',
        [content, fence, job.workerId],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() }); // 0 when it had passed on
    }
  },
});
