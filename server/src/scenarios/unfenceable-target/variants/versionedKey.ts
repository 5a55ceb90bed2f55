import { takeWithFence } from '../../kit/acquireWithFence.js';
import { defineUploadVariant } from '../uploadJob.js';

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

export default defineUploadVariant({
  id: 'versioned-key',
  title: 'Report in a versioned Redis key, compared in Lua',
  correct: true,
  summary:
    "The report goes to a Redis key beside the fence it was written with, and a Lua script takes an upload only with a higher fence. worker-1's stale upload, fence 1, arrives after fence 2 and is refused.",
  figures: 'the target compares the fence: stale upload refused, readers get fence 2',
  source: import.meta.url,
  steps: {
    acquire: takeWithFence, // the lease and a fence number, in one step
    put: async (job, report, fence) =>
      Number(await job.redis.eval(PUT_IF_NEWER, 3, job.reportKey, job.reportFenceKey, job.refusedKey, fence, report)) === 1,
  },
});
