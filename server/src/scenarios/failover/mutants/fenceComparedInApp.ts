// pg-fence, with the fence compared in application code: the worker reads the row's fence
// and compares it in JavaScript before its work, then writes without the guard. The failover
// and worker-2's write fall between the check and the write.
import { defineMutant } from '../../types.js';
import type { FailoverJob } from '../failoverJob.js';

export default defineMutant<FailoverJob>({
  id: 'fence-compared-in-app',
  of: 'pg-fence',
  mistake: "reads the row's fence and compares it in JavaScript, then writes without the guard in the UPDATE",
  failsAt: {},
  title: "Fence compared in the application",
  summary: "worker-1 checks the row's fence (0 < 1: fine) before its work; worker-2 writes fence 2 meanwhile, and worker-1's unguarded write lands.",
  source: import.meta.url,
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now(); // the lease counts from the SET, not from after the fence below
    const ok = await job.lockRedis.set(job.lockKey, job.token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') return job.denied();
    // The counter lives in PostgreSQL, which does not fail over with Redis: each grant gets a higher number.
    const { rows } = await job.pg.query<{ n: number }>("update fences set n = n + 1 where name = 'document' returning n");
    const fence = rows[0]!.n;
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token, fence });
    await job.enter();

    try {
      // The mistake: the check is a read, and the write that follows does not repeat it.
      const { rows: row } = await job.pg.query<{ fence: number }>('select fence from documents where id = 1');
      if (row[0]!.fence >= fence) return;
      await job.work();
      const content = `draft by ${job.workerId}`;
      const updated = await job.write(
        'update documents set content = $1, writer = $2, fence = $3 where id = 1',
        [content, job.workerId, fence],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
