// lock-per-slot, with the key's lease sized to the job instead of the rest of the slot.
import { intParam, mutantOf } from '../../types.js';
import lockPerSlot from '../variants/lockPerSlot.js';

export default mutantOf(lockPerSlot, {
  id: 'lease-for-the-job',
  mistake: "the key's lease is the job's length, not the rest of the slot",
  failsAt: {},
  title: 'Lock per slot, held for as long as the job runs',
  summary:
    'The right key, never released, but its lease is sized to the 300 ms job: it is gone long before node-2, a second late, fires for the same slot.',
  source: import.meta.url,
  steps: {
    // The mistake: the key is the record that the slot has run, yet it lives only as long as the job.
    ttlMs: (job) => intParam(job.params, 'jobMs'),
  },
});
