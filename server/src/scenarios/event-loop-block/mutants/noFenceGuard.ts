// watchdog-fenced, with the fence carried into the row but never compared: the UPDATE
// has no `and fence < $2`, so the stale write lands with its old number.
import { noFenceGuard } from '../../kit/noFenceGuard.js';
import watchdogFenced from '../variants/watchdogFenced.js';

export default noFenceGuard(watchdogFenced, {
  title: 'Watchdog and a fence that nothing compares',
  summary:
    "The fence numbers are right and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
});
