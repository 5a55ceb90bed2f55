// pg-fence, with the fence carried into the row but never compared: the UPDATE has no
// `and fence < $3`, so the stale write lands with its old number.
import { mutantOf } from '../../types.js';
import pgFence from '../variants/pgFence.js';

export default mutantOf(pgFence, {
  id: 'no-fence-guard',
  mistake: 'writes the fence into the row without `where fence < $new`: nothing compares it',
  failsAt: {},
  title: 'Fence written, never compared',
  summary:
    "PostgreSQL's counter hands out the right numbers and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
  steps: {
    // The mistake: the guard `and fence < $3` is missing.
    write: (job, content, fence) =>
      job.write('update documents set content = $1, writer = $2, fence = $3 where id = 1', [content, job.workerId, fence]),
  },
});
