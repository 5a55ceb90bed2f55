// token-lua with the same value in every container: the compare-and-delete compares, but
// another holder's lock holds the same value, so it matches and is deleted.
import { mutantOf } from '../../types.js';
import { OVERRUN_THEN_FAIL } from '../declaredSets.js';
import tokenLua from '../variants/tokenLua.js';

export default mutantOf(tokenLua, {
  id: 'token-lua-constant-token',
  mistake: "the token is a constant, the same in every container: compare-and-delete matches another holder's lock",
  failsAt: OVERRUN_THEN_FAIL,
  title: 'Compare-and-delete, but a constant token',
  summary:
    "worker-1's fetch outlasts its lease and fails; worker-2 holds the lock with the same value, so worker-1's compare-and-delete deletes it and worker-3 gets in.",
  source: import.meta.url,
  steps: { token: () => 'nightly-report' }, // the mistake: not unique to this holder
});
