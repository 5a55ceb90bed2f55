// token-lua, released with a plain DEL instead of the compare-and-delete: when worker-1's
// work outlasts its lease, its release deletes worker-2's lock and worker-3 gets in.
import { mutantOf } from '../../types.js';
import { OVERRUN_THEN_FAIL } from '../declaredSets.js';
import tokenLua from '../variants/tokenLua.js';

export default mutantOf(tokenLua, {
  id: 'token-lua-plain-del',
  mistake: 'releases with a plain DEL, not compare-and-delete: it deletes the lock whoever holds it now',
  failsAt: OVERRUN_THEN_FAIL,
  title: 'Unique token, but a plain DEL release',
  summary:
    "worker-1's fetch outlasts its lease and fails; worker-2 has the lock by then, and worker-1's DEL removes it: worker-3 gets in while worker-2 still builds.",
  source: import.meta.url,
  steps: { release: (job, key) => job.redis.del(key) }, // the mistake: the token is never compared
});
