// versioned-key, with the fence compared in application code: the worker reads the stored
// fence and compares it in JavaScript before its pause, then puts the report without the check.
import { defineMutant } from '../../types.js';
import type { UploadJob } from '../uploadJob.js';

export default defineMutant<UploadJob>({
  id: 'fence-compared-in-app',
  of: 'versioned-key',
  mistake: "reads the key's fence and compares it in JavaScript, then writes the key without the check in the script",
  failsAt: {},
  title: "Fence compared in the application",
  summary: "worker-1 checks the stored fence (none yet: fine), stops, and puts its fence-1 report over worker-2's fence-2 one.",
  source: import.meta.url,
  async run(job) {
    const fence = await job.acquire(); // the lease and a fence number, in one step
    if (fence === null) return;

    try {
      // The mistake: the check is a read, and the write that follows does not repeat it.
      if (Number((await job.redis.get(job.reportFenceKey)) ?? 0) >= fence) return;
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      const report = await job.work(fence);
      await job.upload(fence, async () => {
        await job.redis.mset(job.reportKey, report, job.reportFenceKey, fence);
        return true;
      });
    } finally {
      await job.finish();
    }
  },
});
