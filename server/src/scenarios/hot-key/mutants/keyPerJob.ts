// per-entity-key, with the key named after the job instead of the entity.
import { mutantOf } from '../../types.js';
import { AFTER_JOB_ROW } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';
import perEntityKey from '../variants/perEntityKey.js';

export default mutantOf(perEntityKey, {
  id: 'key-per-job',
  mistake: 'names the lock after the job, not after the entity the job touches',
  failsAt: {},
  title: 'One lock key per job',
  summary: 'Every job gets a key of its own, so no job ever waits: two jobs of the same customer run at once.',
  source: import.meta.url,
  checkpoints: [AFTER_JOB_ROW],
  steps: {
    // The mistake: a key per job is never contended, so it excludes nothing.
    lockName: (job) => `${LOCK_KEY}:${job.jobId}`,
  },
});
