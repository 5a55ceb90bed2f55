// fencing with a real lock library: worker-1's process is stopped (SIGSTOP) right after the
// library grants it the lease; the variants are built by ../ledgerLibraryVariants.ts.
import { handoverLibraryVariants } from '../ledgerLibraryVariants.js';
import { handover } from './choreography.js';
import type { DocumentJob } from './documentJob.js';

export const LIBRARY_VARIANTS = handoverLibraryVariants<DocumentJob>(handover, {
  row: { table: 'documents', target: 'document' },
  hold: (job) => job.pause(),
  stall: { words: 'pause', param: 'pauseMs', renewed: 'it writes before the lease can pass on' },
});
