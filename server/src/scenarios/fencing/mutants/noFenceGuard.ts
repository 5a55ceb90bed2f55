// fenced, with the fence carried into the row but never compared: the UPDATE has no
// `and fence < $2`, so the stale write lands with its old number.
import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { defineMutant } from '../../types.js';
import type { DocumentJob } from '../documentJob.js';

export default defineMutant<DocumentJob>({
  id: 'no-fence-guard',
  of: 'fenced',
  mistake: "writes the fence into the row without `where fence < $new`: nothing compares it",
  failsAt: {},
  title: 'Fence written, never compared',
  summary: "Every grant has a higher fence number and the row stores it, but the UPDATE has no guard: worker-1's fence-1 write lands over fence 2.",
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
      // The mistake: the guard `and fence < $2` is missing.
      const updated = await job.write('update documents set content = $1, fence = $2, writer = $3 where id = 1', [
        content,
        fence,
        job.workerId,
      ]);
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
