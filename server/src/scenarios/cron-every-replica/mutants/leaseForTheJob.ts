// lock-per-slot, with the key's lease sized to the report instead of the rest of the slot.
import { intParam, mutantOf } from '../../types.js';
import lockPerSlot from '../variants/lockPerSlot.js';

export default mutantOf(lockPerSlot, {
  id: 'lease-for-the-job',
  mistake: "sizes the slot key's lease to the report's length, not to the rest of the slot",
  failsAt: {},
  title: 'A lock per slot, held for as long as the report takes',
  summary:
    'The right key, never released, but its lease is the 200 ms of the report: it is gone before replica-2, 300 ms late, fires for the same slot.',
  source: import.meta.url,
  steps: {
    // The mistake: the key is the record that the slot has run, yet it lives only as long as the job.
    ttlMs: (job) => Math.max(1, intParam(job.params, 'jobMs')),
  },
});
