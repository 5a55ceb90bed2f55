// The near-miss every lab with a fenced row has (fencing, event-loop-block, failover,
// redlock): the fence is carried into the row but never compared. It is the variant's own
// UPDATE sent without the guard it ends with (`and fence < $n`), so it cannot drift from
// the variant it mutates, and the stale write lands with its old number.
import { mutantOf, type MutantSteps, type SteppedVariant, type WorkerContext } from '../types.js';
import type { FencedSteps } from './fencedLease.js';

/** The guard a fenced UPDATE ends with. */
const FENCE_GUARD = / and fence < \$\d+$/;

/** A job that writes its row with `write(sql, values)`. */
interface RowWriter {
  write(sql: string, values: never): Promise<number>;
}

/** `sql` without the guard it ends with; throws when it has none, for then there is nothing to leave out. */
export function withoutFenceGuard(sql: string): string {
  const unguarded = sql.replace(FENCE_GUARD, '');
  if (unguarded === sql) throw new Error(`no fence guard to leave out of: ${sql}`);
  return unguarded;
}

/** `variant` with its row's UPDATE sent unguarded; `texts` say so in the lab's words, with the mutant module's URL as `source`. */
export function noFenceGuard<Job extends WorkerContext & RowWriter>(
  variant: SteppedVariant<Job, FencedSteps<Job>>,
  texts: Pick<MutantSteps<Job, FencedSteps<Job>>, 'title' | 'summary' | 'source'>,
) {
  return mutantOf(variant, {
    id: 'no-fence-guard',
    mistake: 'writes the fence into the row without `where fence < $new`: nothing compares it',
    failsAt: {},
    ...texts,
    steps: {
      // The mistake: the variant's own write, its guard left out.
      write: (job, content, fence) =>
        variant.steps.write({ ...job, write: (sql: string, values: never) => job.write(withoutFenceGuard(sql), values) }, content, fence),
    },
  });
}
