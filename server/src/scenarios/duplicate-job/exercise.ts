// duplicate-job as an exercise: blind-del's lock lets a third container in when the first
// one's work outlasts its lease; the learner's release must delete only its own lock.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'blind-del',
  solution: 'token-lua',
  hints: [
    'A lease can expire while its holder still works. When the first container releases, the lock may already belong to another: the release must delete only the lock this container took.',
    "Give each holder its own value (a random token) in SET key token NX PX, and release with a compare-and-delete that Redis runs as one step: a Lua script, EVAL \"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end\".",
    "Take: const token = randomUUID(); set(key, token, 'PX', job.leaseMs, 'NX'). Release, in finally: job.redis.eval(script, 1, key, token). A GET, then a DEL, is two steps: a stall between them deletes the next holder's lock.",
  ],
  setReasons: [
    'five containers fire at once: one takes the lock, four must skip',
    'two containers arrive one after the other: the second comes when the first lease is gone',
    "worker-1's fetch outlasts its 2 s lease and fails: worker-2 holds the lock when worker-1 releases",
    "worker-1's fetch fails at once, inside its 3 s lease: its release must let the next one in",
  ],
};
