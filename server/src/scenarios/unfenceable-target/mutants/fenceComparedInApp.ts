// versioned-key, with the fence compared in application code: the worker reads the stored
// fence and compares it in JavaScript as it takes the lease, before its pause, then puts
// the report without the check.
import { fenceReadFirst } from '../../kit/fenceReadFirst.js';
import { mutantOf } from '../../types.js';
import versionedKey from '../variants/versionedKey.js';

export default mutantOf(versionedKey, {
  id: 'fence-compared-in-app',
  mistake: "reads the key's fence and compares it in JavaScript, then writes the key without the check in the script",
  failsAt: {},
  title: 'Fence compared in the application',
  summary: "worker-1 checks the stored fence (none yet: fine), stops, and puts its fence-1 report over worker-2's fence-2 one.",
  source: import.meta.url,
  steps: {
    // The mistake: the check is a read, and the write that follows does not repeat it.
    acquire: fenceReadFirst(
      versionedKey.steps.acquire,
      async (job) => Number((await job.redis.get(job.reportFenceKey)) ?? 0),
      (job) => job.release(),
    ),
    put: async (job, report, fence) => {
      await job.redis.mset(job.reportKey, report, job.reportFenceKey, fence);
      return true;
    },
  },
});
