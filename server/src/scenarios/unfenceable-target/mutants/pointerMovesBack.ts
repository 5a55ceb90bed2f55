// fenced-pointer, with a pointer that may move backwards: the UPDATE that publishes a file
// has no `and fence < $2`, so the stale upload is published over the newer one.
import { mutantOf } from '../../types.js';
import fencedPointer, { publish, writeOnce } from '../variants/fencedPointer.js';

export default mutantOf(fencedPointer, {
  id: 'pointer-moves-back',
  mistake: 'publishes with no `where fence < $new`: the pointer may move back to an older fence',
  failsAt: {},
  title: 'A pointer that moves backwards',
  summary:
    "Every upload still gets a file of its own, but the pointer row takes any fence: worker-1's stale fence-1 file is published over fence 2.",
  source: import.meta.url,
  steps: {
    async put(job, report, fence) {
      const file = await writeOnce(job, report, fence);
      // The mistake: the guard `and fence < $2` is missing.
      return publish(job, 'update published set file = $1, fence = $2, writer = $3 where id = 1', file, fence);
    },
  },
});
