// pg-fence, with the fence carried into the row but never compared: the UPDATE has no
// `and fence < $3`, so the stale write lands with its old number.
import { noFenceGuard } from '../../kit/noFenceGuard.js';
import pgFence from '../variants/pgFence.js';

export default noFenceGuard(pgFence, {
  title: 'Fence written, never compared',
  summary:
    "PostgreSQL's counter hands out the right numbers and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
});
