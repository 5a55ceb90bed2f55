import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { takeLease } from '../../kit/takeLease.js';
import { choiceParam, defineSteppedVariant } from '../../types.js';
import type { FailoverJob, LockSteps } from '../failoverJob.js';
import { writeTrustingTheLock } from './plainLock.js';

export default defineSteppedVariant<FailoverJob, LockSteps>({
  id: 'wait-replica',
  title: 'SET NX PX, then WAIT for a replica',
  correct: false,
  summary:
    'The lock is trusted only once WAIT says a replica has it. That stops a failover from losing it to a lagging replica, but not when the replica that confirmed it dies with the primary: Sentinel promotes the other one, and worker-2 takes the same lock.',
  figures: 'outage of the zone (primary and the replica that acknowledged WAIT): holders 2, stale writes accepted 1',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  // It loses the lock only when the replica that confirmed it dies too and the promoted one lags.
  expectedOtherwise(params) {
    if (choiceParam(params, 'lag') === 'none') {
      return 'no replication lag: the promoted replica has the lock when the primary dies, so worker-2 is refused and there is one holder';
    }
    if (choiceParam(params, 'outage') === 'primary') {
      return 'the primary dies alone: no replica confirms the lock in time (WAIT times out), so worker-1 refuses it and worker-2 is the only holder';
    }
    return null;
  },
  defaults: { outage: 'zone' },
  steps: {
    // Only a lock a replica has acknowledged survives a failover: the one WAIT must confirm.
    trusts: (acked) => acked >= 1,
  },
  async run(job, { trusts }) {
    await holdLease(
      job,
      async () => {
        const grant = await takeLease(job, job.lockRedis, job.denied);
        if (!grant) return null;
        // Blocks until 1 replica has acknowledged every write of this connection, or the timeout passes.
        const acked = await job.lockRedis.wait(1, job.waitTimeoutMs);
        job.emit({ type: 'note', text: `WAIT 1 ${job.waitTimeoutMs}: ${acked} replica(s) acknowledged the lock` });
        if (trusts(acked)) return grant;
        // Only the primary has the key: a failover now would lose it. Do not trust the lock.
        job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() });
        return job.skip('no replica confirmed the lock');
      },
      () => writeTrustingTheLock(job),
    );
  },
});
