// event-loop-block with a real lock library: worker-1 blocks its event loop right after the
// library grants it the lease, so a library's renewal timer cannot fire either; the
// variants are built by ../ledgerLibraryVariants.ts.
import { handoverLibraryVariants } from '../ledgerLibraryVariants.js';
import { handover } from './choreography.js';
import type { StatementJob } from './statementJob.js';

export const LIBRARY_VARIANTS = handoverLibraryVariants<StatementJob>(handover, {
  row: { table: 'statements', target: 'statement' },
  hold: (job) => job.blockEventLoop(),
  // A renewal timer fires, overdue, as soon as the loop is free: in time if the lease is still live.
  stall: { words: 'block', param: 'blockMs', renewed: 'the library renews it as soon as the loop is free' },
});
