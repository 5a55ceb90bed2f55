// lock-per-slot, with the slot's key deleted once the report is sent.
import { mutantOf } from '../../types.js';
import lockPerSlot from '../variants/lockPerSlot.js';

export default mutantOf(lockPerSlot, {
  id: 'released-when-done',
  mistake: 'deletes the slot key in finally once the report is sent, out of habit',
  failsAt: {},
  title: 'A lock per slot, released when the report is sent',
  summary:
    'The key would last until the slot ends, but a tidy finally deletes it after the 200 ms report: replica-2, its clock 300 ms late, fires after that, finds no key and sends the report again; so does replica-3.',
  source: import.meta.url,
  steps: {
    // The mistake: the key was the record that this slot has run, and now it is gone.
    done: async (job) => job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.redis.del(job.lockKey) }),
  },
});
