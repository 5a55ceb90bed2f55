// wait-replica, with WAIT's reply never read: WAIT is treated as a guarantee, so the lock
// is trusted even when no replica acknowledged it and only the primary has the key.
import { AFTER_WRITE } from '../../kit/fencedLedger.js';
import { mutantOf } from '../../types.js';
import waitReplica from '../variants/waitReplica.js';

export default mutantOf(waitReplica, {
  id: 'wait-treated-as-guarantee',
  mistake: 'calls WAIT but never checks its reply: the lock is trusted though no replica acknowledged it',
  failsAt: { outage: 'primary' },
  title: 'SET NX PX, then WAIT, reply ignored',
  summary:
    "WAIT times out with 0 replicas (the only one sits behind the slow link), but worker-1 trusts its lock anyway. The primary dies, Sentinel promotes the replica without the key, worker-2 takes the same lock, and worker-1's stale write lands.",
  source: import.meta.url,
  checkpoints: [AFTER_WRITE],
  steps: { trusts: () => true }, // the mistake: WAIT's reply is never read, the lock trusted whatever it answered
});
