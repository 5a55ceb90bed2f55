// pg-fence, with the fence carried into the row but never compared: the UPDATE has no
// `and fence < $3`, so the stale write lands with its old number.
import { defineMutant } from '../../types.js';
import type { FailoverJob } from '../failoverJob.js';

export default defineMutant<FailoverJob>({
  id: 'no-fence-guard',
  of: 'pg-fence',
  mistake: "writes the fence into the row without `where fence < $new`: nothing compares it",
  failsAt: {},
  title: "Fence written, never compared",
  summary: "PostgreSQL's counter hands out the right numbers and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
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
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
