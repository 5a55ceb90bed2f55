import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { defineVariant } from '../../types.js';
import type { UploadJob } from '../uploadJob.js';

// The target keeps the fence of what it holds and compares in the same step as the write:
// an upload with a fence no higher than the stored one changes nothing, and is counted.
const PUT_IF_NEWER = `
if tonumber(ARGV[1]) <= tonumber(redis.call('GET', KEYS[2]) or '0') then
  redis.call('INCR', KEYS[3])
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
return 1`;

export default defineVariant<UploadJob>({
  id: 'versioned-key',
  title: 'Report in a versioned Redis key, compared in Lua',
  correct: true,
  summary:
    "The report goes to a Redis key beside the fence it was written with, and a Lua script takes an upload only with a higher fence. worker-1's stale upload, fence 1, arrives after fence 2 and is refused.",
  figures: 'the target compares the fence: stale upload refused, readers get fence 2',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  async run(job) {
    const fence = await job.acquire(); // the lease and a fence number, in one step
    if (fence === null) return;

    try {
      await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
      const report = await job.work(fence);
      await job.upload(fence, async () => {
        const taken = await job.redis.eval(PUT_IF_NEWER, 3, job.reportKey, job.reportFenceKey, job.refusedKey, fence, report);
        return Number(taken) === 1;
      });
    } finally {
      await job.finish();
    }
  },
});
