// lock-per-slot, with the slot's key deleted once the batch is done.
import { mutantOf } from '../../types.js';
import lockPerSlot from '../variants/lockPerSlot.js';

export default mutantOf(lockPerSlot, {
  id: 'deleted-when-done',
  mistake: 'deletes the slot key in finally once the batch is done, out of habit',
  failsAt: {},
  title: 'Lock per slot, deleted when the job is done',
  summary:
    'The key would last until the slot ends, but a tidy finally deletes it after the 300 ms batch: node-2, a second late, finds no key and bills the slot again.',
  source: import.meta.url,
  steps: {
    // The mistake: the key was the record that this slot has run, and now it is gone.
    done: async (job) => job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.redis.del(job.lockKey) }),
  },
});
