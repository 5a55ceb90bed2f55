// redlock-fenced, with the fence carried into the row but never compared: the UPDATE has
// no `and fence < $3`, so the stale write lands with its old number.
import { noFenceGuard } from '../../kit/noFenceGuard.js';
import redlockFenced from '../variants/redlockFenced.js';

export default noFenceGuard(redlockFenced, {
  title: 'Redlock and a fence that nothing compares',
  summary:
    "The sequence hands out the right numbers and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
});
