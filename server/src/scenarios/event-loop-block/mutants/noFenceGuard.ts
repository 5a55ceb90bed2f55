// watchdog-fenced, with the fence carried into the row but never compared: the UPDATE
// has no `and fence < $2`, so the stale write lands with its old number.
import { mutantOf } from '../../types.js';
import watchdogFenced from '../variants/watchdogFenced.js';

export default mutantOf(watchdogFenced, {
  id: 'no-fence-guard',
  mistake: 'writes the fence into the row without `where fence < $new`: nothing compares it',
  failsAt: {},
  title: 'Watchdog and a fence that nothing compares',
  summary:
    "The fence numbers are right and the row stores them, but the UPDATE has no guard: worker-1's fence-1 write lands after fence 2.",
  source: import.meta.url,
  steps: {
    // The mistake: the guard `and fence < $2` is missing.
    write: (job, content, fence) =>
      job.write('update statements set content = $1, fence = $2, writer = $3 where id = 1', [content, fence, job.workerId]),
  },
});
