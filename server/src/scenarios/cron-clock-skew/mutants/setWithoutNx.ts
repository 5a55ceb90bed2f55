// lock-per-slot, with the slot's key set without NX.
import { mutantOf } from '../../types.js';
import lockPerSlot from '../variants/lockPerSlot.js';

export default mutantOf(lockPerSlot, {
  id: 'set-without-nx',
  mistake: 'takes the slot key with SET … PX and no NX, so a taken key is overwritten, not refused',
  failsAt: {},
  title: 'Lock per slot, set without NX',
  summary:
    "The right key and the right lease, but SET without NX always answers OK: node-2 overwrites node-1's key and bills the slot again.",
  source: import.meta.url,
  steps: {
    // The mistake: without NX this SET never fails, whoever holds the key.
    set: (job, ttlMs) => job.redis.set(job.lockKey, job.workerId, 'PX', ttlMs),
  },
});
