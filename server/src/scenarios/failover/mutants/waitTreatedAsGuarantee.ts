// wait-replica, with WAIT's reply never read: WAIT is treated as a guarantee, so the lock
// is trusted even when no replica acknowledged it and only the primary has the key.
import { AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineMutant } from '../../types.js';
import type { FailoverJob } from '../failoverJob.js';

export default defineMutant<FailoverJob>({
  id: 'wait-treated-as-guarantee',
  of: 'wait-replica',
  mistake: 'calls WAIT but never checks its reply: the lock is trusted though no replica acknowledged it',
  failsAt: { outage: 'primary' },
  title: 'SET NX PX, then WAIT, reply ignored',
  summary:
    "WAIT times out with 0 replicas (the only one sits behind the slow link), but worker-1 trusts its lock anyway. The primary dies, Sentinel promotes the replica without the key, worker-2 takes the same lock, and worker-1's stale write lands.",
  source: import.meta.url,
  checkpoints: [AFTER_WRITE],
  async run(job) {
    job.emit({ type: 'lease-requested', key: job.lockKey });
    const sent = job.now(); // the lease counts from the SET, not from after the WAIT below
    const ok = await job.lockRedis.set(job.lockKey, job.token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') return job.denied();
    // Blocks until 1 replica has acknowledged every write of this connection, or the timeout passes.
    const acked = await job.lockRedis.wait(1, job.waitTimeoutMs);
    job.emit({ type: 'note', text: `WAIT 1 ${job.waitTimeoutMs}: ${acked} replica(s) acknowledged the lock` });
    // The mistake: no `if (acked < 1)` — the lock is trusted whatever WAIT answered.
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs: job.leaseMs, fromMs: sent, token: job.token });
    await job.enter();

    try {
      await job.work();
      const content = `draft by ${job.workerId}`;
      await job.write('update documents set content = $1, writer = $2 where id = 1', [content, job.workerId]);
      job.emit({ type: 'write-accepted', target: 'document', value: content });
    } finally {
      job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
    }
  },
});
