import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineVariant } from '../../types.js';
import type { FailoverJob } from '../failoverJob.js';

export default defineVariant<FailoverJob>({
  id: 'pg-fence',
  title: 'Fence number from PostgreSQL, checked by the row',
  correct: true,
  summary:
    "The same failover and the same two holders, but every grant takes a higher fence number from a PostgreSQL counter, and the row takes a write only from a fence higher than its own. worker-1's stale write is rejected.",
  figures: 'holders 2, stale writes accepted 0 (rejected 1), last writer worker-2',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
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
      // The database is the judge: a write from an older grant than the last one it took updates nothing.
      const updated = await job.write(
        'update documents set content = $1, writer = $2, fence = $3 where id = 1 and fence < $3',
        [content, job.workerId, fence],
      );
      if (updated === 1) job.emit({ type: 'write-accepted', target: 'document', value: content, fence });
      else job.emit({ type: 'write-rejected', target: 'document', value: content, fence, reason: 'the row holds a newer fence' });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
