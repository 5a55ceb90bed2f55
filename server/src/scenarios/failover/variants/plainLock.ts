import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { takeLease } from '../../kit/takeLease.js';
import { choiceParam, defineVariant } from '../../types.js';
import type { FailoverJob } from '../failoverJob.js';

/** The lock is all this write relies on: it always lands. */
export async function writeTrustingTheLock(job: FailoverJob): Promise<void> {
  await job.work();
  const content = `draft by ${job.workerId}`;
  await job.write('update documents set content = $1, writer = $2 where id = 1', [content, job.workerId]);
  job.emit({ type: 'write-accepted', target: 'document', value: content });
}

export default defineVariant<FailoverJob>({
  id: 'plain-lock',
  title: 'SET NX PX on the primary',
  correct: false,
  summary:
    "worker-1 takes the lock on the primary, which answers OK before its replica has the key. The primary dies; Sentinel promotes the replica, worker-2 takes the same lock there, and worker-1's stale write lands over worker-2's.",
  figures: 'primary dies before the replica has the key; Sentinel promotes it: max concurrent holders 2, stale writes accepted 1',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  // With no lag the promoted replica has the lock, so worker-2's SET NX is refused.
  expectedOtherwise: (params) =>
    choiceParam(params, 'lag') === 'none'
      ? 'no replication lag: the promoted replica has the lock when the primary dies, so worker-2 is refused and there is one holder'
      : null,
  async run(job) {
    await holdLease(
      job,
      // The primary answers OK once it has the key; replication to the replica follows later.
      () => takeLease(job, job.lockRedis, job.denied),
      () => writeTrustingTheLock(job),
    );
  },
});
