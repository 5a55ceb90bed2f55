// fenced, with the fence carried into the row but never compared: the UPDATE has no
// `and fence < $2`, so the stale write lands with its old number.
import { mutantOf } from '../../types.js';
import fenced from '../variants/fenced.js';

export default mutantOf(fenced, {
  id: 'no-fence-guard',
  mistake: 'writes the fence into the row without `where fence < $new`: nothing compares it',
  failsAt: {},
  title: 'Fence written, never compared',
  summary:
    "Every grant has a higher fence number and the row stores it, but the UPDATE has no guard: worker-1's fence-1 write lands over fence 2.",
  source: import.meta.url,
  steps: {
    // The mistake: the guard `and fence < $2` is missing.
    write: (job, content, fence) =>
      job.write('update documents set content = $1, fence = $2, writer = $3 where id = 1', [content, fence, job.workerId]),
  },
});
