// fenced, with the fence taken by its own INCR after the SET, not in the same atomic step:
// a process that stops between the two gets its number after a later holder got its own.
import { defineMutant } from '../../types.js';
import type { DocumentJob } from '../documentJob.js';

export default defineMutant<DocumentJob>({
  id: 'fence-after-the-stall',
  of: 'fenced',
  mistake: 'takes the fence with a separate INCR after SET NX, so a stall between the two reorders the numbers',
  failsAt: {},
  title: 'Fence taken apart from the lease',
  summary: "worker-1 takes the lease, stops, and only then INCRs: worker-2 got fence 1 meanwhile, so worker-1's stale write carries fence 2 and the guard lets it in.",
  source: import.meta.url,
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now();
    const ok = await job.redis.set(job.lockKey, job.token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') return job.skip();
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token });
    await job.enter();

    try {
      await job.pause();
      // The mistake: the number comes from its own command, after whatever stall came first.
      const fence = await job.redis.incr(job.fenceKey);
      await job.work();
      const content = `draft by ${job.workerId}`;
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
