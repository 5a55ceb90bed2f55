// fencing as an exercise: lease-only's stalled holder writes after its lease passed on; the
// learner gives each grant a fence number and lets the row refuse an older one.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'lease-only',
  solution: 'fenced',
  hints: [
    'A lease cannot stop a process that was stopped past it: worker-1 wakes up and writes as if it still held the lease. Give every grant a number that only grows, and let the row itself refuse a write that carries an older number than the one it holds.',
    'Take the lease and its number in one atomic step inside Redis (a Lua script: SET lock token NX PX, then INCR fence only when the SET succeeded), and make the write conditional in SQL: UPDATE documents SET …, fence = $new WHERE id = 1 AND fence < $new.',
    "Take the lease with the kit's takeWithFence(job) (acquireWithFence.js) instead of takeLease, so the grant carries its fence; keep job.pause() and job.work(), then write with job.write(…) storing that fence under the guard, and let writeDraft(job, fence, write) report whether the row took it.",
  ],
  setReasons: [
    "worker-1 is stopped 2 s in a 500 ms lease: worker-2 takes the lease with a higher fence and writes first, and worker-1's stale write must change nothing",
    "a 2 s lease, a 4 s stop and 600 ms of work: the same handover with longer timings, and worker-1's write, still the last, must change nothing",
  ],
};
