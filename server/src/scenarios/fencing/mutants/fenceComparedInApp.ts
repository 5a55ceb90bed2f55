// fenced, with the fence compared in application code: the worker reads the row's fence,
// compares it in JavaScript, then writes without the guard. The stall falls between the
// check and the write, and the row's newer fence arrives in that gap.
import { acquireWithFence } from '../../kit/acquireWithFence.js';
import { defineMutant } from '../../types.js';
import type { DocumentJob } from '../documentJob.js';

export default defineMutant<DocumentJob>({
  id: 'fence-compared-in-app',
  of: 'fenced',
  mistake: 'reads the row\'s fence and compares it in JavaScript, then writes without the guard in the UPDATE',
  failsAt: {},
  title: 'Fence compared in the application',
  summary: "worker-1 checks the row's fence (0 < 1: fine), its process stops, worker-2 writes fence 2, and worker-1's unguarded write lands.",
  source: import.meta.url,
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now();
    const fence = await acquireWithFence(job.redis, job.lockKey, job.fenceKey, job.token, job.leaseMs);
    if (fence === null) return job.skip();
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token, fence });
    await job.enter();

    try {
      // The mistake: the check is a read, and the write that follows does not repeat it.
      const { rows } = await job.pg.query<{ fence: number }>('select fence from documents where id = 1');
      if (rows[0]!.fence >= fence) return;
      await job.pause();
      await job.work();
      const content = `draft by ${job.workerId}`;
      await job.write('update documents set content = $1, fence = $2, writer = $3 where id = 1', [content, fence, job.workerId]);
      job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
