// The near-miss of a fenced variant whose row is a document (fencing, failover): one write
// goes around the fenced path. Before the fenced UPDATE, an autosave of the draft goes
// straight from the (stale) worker to the table, unguarded. (Before, not after: the fenced
// UPDATE is what tells the older holder its turn has come, so the newer holder's autosave
// never lands after the older one's.)
import { mutantOf, type SteppedVariant, type WorkerContext } from '../types.js';
import type { FencedSteps } from './fencedLease.js';

/** `variant` with an unguarded autosave before its fenced write; `source` is the mutant module's URL. */
export function writeAroundTheFence<Job extends WorkerContext>(variant: SteppedVariant<Job, FencedSteps<Job>>, source: string) {
  return mutantOf(variant, {
    id: 'bypasses-the-fence',
    mistake: 'a second UPDATE of the same row (an autosave of the content) goes straight to the table, without the guard',
    failsAt: {},
    title: 'A write around the fence',
    summary:
      "worker-1's plain UPDATE of its draft lands, and then its fenced write is refused: the row's trigger logs the stale one that landed.",
    source,
    steps: {
      async write(job, content, fence) {
        // The mistake: the autosave goes by a path the fence does not guard, and nothing is said of it.
        await job.pg.query('update documents set content = $1, writer = $2 where id = 1', [content, job.workerId]);
        return variant.steps.write(job, content, fence);
      },
    },
  });
}
