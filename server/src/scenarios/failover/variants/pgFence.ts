import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { writeDraft } from '../../kit/reportWrite.js';
import { defineSteppedVariant } from '../../types.js';
import type { FailoverJob, FencedSteps } from '../failoverJob.js';

export default defineSteppedVariant<FailoverJob, FencedSteps>({
  id: 'pg-fence',
  title: 'Fence number from PostgreSQL, checked by the row',
  correct: true,
  summary:
    "The same failover and the same two holders, but every grant takes a higher fence number from a PostgreSQL counter, and the row takes a write only from a fence higher than its own. worker-1's stale write is rejected.",
  figures: 'holders 2, stale writes accepted 0 (rejected 1), last writer worker-2',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  steps: {
    async acquire(job) {
      const fromMs = job.now(); // the lease counts from the SET, not from after the fence below
      const ok = await job.lockRedis.set(job.lockKey, job.token, 'PX', job.leaseMs, 'NX');
      if (ok !== 'OK') return job.denied();
      // The counter lives in PostgreSQL, which does not fail over with Redis: each grant gets a higher number.
      const { rows } = await job.pg.query<{ n: number }>("update fences set n = n + 1 where name = 'document' returning n");
      return { ttlMs: job.leaseMs, fromMs, fence: rows[0]!.n };
    },
    // The database is the judge: a write from an older grant than the last one it took updates nothing.
    write: (job, content, fence) =>
      job.write('update documents set content = $1, writer = $2, fence = $3 where id = 1 and fence < $3', [content, job.workerId, fence]),
  },
  async run(job, { acquire, write }) {
    await holdLease(
      job,
      () => acquire(job),
      async ({ fence }) => {
        await job.work();
        await writeDraft(job, fence, write);
      },
    );
  },
});
