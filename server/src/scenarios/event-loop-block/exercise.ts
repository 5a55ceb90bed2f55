// event-loop-block as an exercise: watchdog's timer cannot fire in a blocked loop, so the
// lease expires anyway; the learner adds a fence the row checks.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'watchdog',
  solution: 'watchdog-fenced',
  hints: [
    'The watchdog is a timer in the same event loop: while worker-1 blocks the loop it cannot fire, the lease expires and worker-2 takes it. No renewal covers a stuck process, so let the row refuse the stale write: every grant a higher number, and the row takes only a number higher than its own.',
    'Take the lease and a fence in one atomic step in Redis (a Lua script: SET lock token NX PX, then INCR fence only when the SET succeeded), and guard the write in SQL: UPDATE statements SET …, fence = $new WHERE id = 1 AND fence < $new.',
    "Keep the watchdog and job.blockEventLoop(); take the lease with the kit's takeWithFence(job) instead of takeLease, write with job.write(…) carrying that fence under the guard, and report the rows it updated with reportWrite(job, updated, 'statement', content, fence).",
  ],
  setReasons: [
    'a 500 ms block inside a 2 s lease, then 2 s of work: the watchdog must keep renewing the lease, so worker-2 waits its turn and one worker writes at a time',
    "worker-1's loop is blocked 900 ms in a 400 ms lease: worker-2 takes the lease and writes, and worker-1's stale write must change nothing",
  ],
};
