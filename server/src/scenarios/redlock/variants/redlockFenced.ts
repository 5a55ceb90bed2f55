import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease } from '../../kit/holdLease.js';
import { writeDraft } from '../../kit/reportWrite.js';
import { defineSteppedVariant } from '../../types.js';
import type { RedlockJob, RedlockSteps } from '../redlockJob.js';
import { heldOnTheNodes, takeMajority } from './redlock.js';

export default defineSteppedVariant<RedlockJob, RedlockSteps>({
  id: 'redlock-fenced',
  title: 'Redlock plus a fence checked by the database',
  correct: true,
  summary:
    "The same Redlock and the same stall, but every grant takes a number from a PostgreSQL sequence and the row takes a write only from a number higher than the one it holds. Both workers still believe they hold the lock; worker-1's stale write is refused.",
  figures: "the same two holders; stale writes accepted 0 (refused by the row's fence)",
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  steps: {
    async acquire(job) {
      const lock = await takeMajority(job); // the Redlock of the `redlock` variant
      if (!lock) return null;
      // Five independent nodes share no counter, so the fence comes from the database that
      // checks it: one sequence, one order. (Taken after the grant: a pause right between
      // the two could still hand the older holder the higher number.)
      const { rows } = await job.pg.query<{ fence: number }>("select nextval('fences')::int as fence");
      return { ...lock, fence: rows[0]!.fence };
    },
    // The database is the judge: a write with an older fence than the row's updates nothing.
    write: (job, content, fence) =>
      job.write('update documents set content = $1, writer = $2, fence = $3 where id = 1 and fence < $3', [content, job.workerId, fence]),
  },
  async run(job, { acquire, write }) {
    await holdLease(
      heldOnTheNodes(job),
      () => acquire(job),
      async ({ fence }) => {
        await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
        await job.work();
        await writeDraft(job, fence, write);
      },
    );
  },
});
