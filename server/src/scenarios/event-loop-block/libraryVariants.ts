// event-loop-block with a real lock library: worker-1 blocks its event loop right after the
// library grants it the lease, so a library's renewal timer cannot fire either; the
// variants are built by ../ledgerLibraryVariants.ts.
import { handoverLibraryVariants } from '../ledgerLibraryVariants.js';
import { intParam } from '../types.js';
import { keepWriteOrder } from './choreography.js';
import { LOCK_KEY } from './keys.js';
import type { StatementJob } from './statementJob.js';

export const LIBRARY_VARIANTS = handoverLibraryVariants<StatementJob>({
  lockKey: LOCK_KEY,
  table: 'statements',
  target: 'statement',
  hold: (job) => job.blockEventLoop(),
  keepWriteOrder,
  passesWithoutFence(module, params) {
    const [leaseMs, blockMs, workMs] = [intParam(params, 'leaseMs'), intParam(params, 'blockMs'), intParam(params, 'workMs')];
    // A renewal timer fires, overdue, as soon as the loop is free: in time if the lease is still live.
    if (module.renews ? blockMs < leaseMs : blockMs + workMs < leaseMs) {
      return `worker-1's ${module.renews ? 'block ends' : 'block and work end'} inside its lease (${leaseMs} ms)${module.renews ? ': the library renews it as soon as the loop is free' : ''}`;
    }
    return null;
  },
});
