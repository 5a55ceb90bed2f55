// fenced, with the fence carried into the row but never compared: the UPDATE has no
// `and fence < $2`, so the stale write lands with its old number.
import { noFenceGuard } from '../../kit/noFenceGuard.js';
import fenced from '../variants/fenced.js';

export default noFenceGuard(fenced, {
  title: 'Fence written, never compared',
  summary:
    "Every grant has a higher fence number and the row stores it, but the UPDATE has no guard: worker-1's fence-1 write lands over fence 2.",
  source: import.meta.url,
});
