import { holdLease } from '../../kit/holdLease.js';
import { takeLease } from '../../kit/takeLease.js';
import { defineVariant } from '../../types.js';
import { AFTER_BATCH_ROW, type CronJob } from '../cronJob.js';
import { everyNodeFiresDuringTheJob } from '../expected.js';

export default defineVariant<CronJob>({
  id: 'release-when-done',
  title: 'Correct lock, released when the job is done',
  correct: false,
  summary:
    "A textbook lock on the slot: token, lease, compare-and-delete. But the job takes 300 ms and node-2's clock is 1 s late: node-2 fires after node-1 released the lock, takes it, and bills the same slot again.",
  figures: "node-2's clock 1 s late, job 300 ms: runs of the slot 2 (should be 1)",
  source: import.meta.url,
  checkpoints: [AFTER_BATCH_ROW],
  expectedOtherwise: everyNodeFiresDuringTheJob,
  async run(job) {
    // One lock per slot, as this node's clock names it; token, lease, compare-and-delete
    // once the batch is done. Tidy, and wrong: once the key is gone, nothing says this slot has run.
    await holdLease(
      job,
      () => takeLease(job, job.redis, job.skip),
      () => job.runBatch(),
    );
  },
});
