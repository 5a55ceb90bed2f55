// unfenceable-target as an exercise: file-with-token sends its fence to a file system that
// never compares it; the learner stops overwriting and fences a pointer in front of it.
import type { ExerciseDefinition } from '../types.js';

export const EXERCISE: ExerciseDefinition = {
  from: 'file-with-token',
  solution: 'fenced-pointer',
  hints: [
    "The report carries worker-1's fence, but a file system has nothing that compares it: rename replaces whatever is there. When the target cannot compare a number, stop overwriting: give every upload a place of its own, and put the comparison in front, where readers look first.",
    "Open each upload's file under a name of its own (one per fence) with the 'wx' flag, which fails rather than replace anything; then point readers at it with UPDATE published SET file = $1, fence = $2, writer = $3 WHERE id = 1 AND fence < $2.",
    "Keep takeWithFence as acquire; in put, write the report with writeFile(path.join(job.dir, name), report, { flag: 'wx' }) instead of the rename, then run the guarded UPDATE with job.pg.query and return whether it changed a row: true is the target taking the upload.",
  ],
  setReasons: [
    "worker-1 is stopped 2 s in a 500 ms lease: worker-2 uploads with fence 2 first, and worker-1's fence-1 report must not become the one readers get",
    "a 2 s lease, a 4 s stop and 600 ms of editing: the same handover with longer timings, and readers must still get worker-2's report",
  ],
};
