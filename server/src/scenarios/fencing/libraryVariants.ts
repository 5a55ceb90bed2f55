// fencing with a real lock library: worker-1's process is stopped (SIGSTOP) right after the
// library grants it the lease; the variants are built by ../ledgerLibraryVariants.ts.
import { handoverLibraryVariants } from '../ledgerLibraryVariants.js';
import { intParam } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import type { DocumentJob } from './documentJob.js';
import { LOCK_KEY } from './keys.js';

export const LIBRARY_VARIANTS = handoverLibraryVariants<DocumentJob>({
  lockKey: LOCK_KEY,
  table: 'documents',
  target: 'document',
  hold: (job) => job.pause(),
  keepWriteOrder,
  passesWithoutFence(module, params) {
    const [leaseMs, pauseMs, workMs] = [intParam(params, 'leaseMs'), intParam(params, 'pauseMs'), intParam(params, 'workMs')];
    // A stopped process renews nothing; once it runs again, a renewing lock keeps its lease for any work.
    if (module.renews ? pauseMs < leaseMs : pauseMs + workMs < leaseMs) {
      return `worker-1's ${module.renews ? 'pause ends' : 'pause and work end'} inside its lease (${leaseMs} ms): it writes before the lease can pass on`;
    }
    return null;
  },
});
