// token-delex with one value for every container: DELEX IFEQ compares, as the script did,
// and matches a later holder's lock all the same. A command in place of a script saves a
// round of Lua, not the need for a token that is this holder's own.
import { mutantOf } from '../../types.js';
import { OVERRUN_THEN_FAIL } from '../declaredSets.js';
import tokenDelex from '../variants/tokenDelex.js';

export default mutantOf(tokenDelex, {
  id: 'token-delex-constant-token',
  mistake: "the value compared by DELEX IFEQ is a constant, the same in every container: it matches another holder's lock",
  failsAt: OVERRUN_THEN_FAIL,
  title: 'DELEX IFEQ, but a constant value',
  summary:
    "worker-1's fetch outlasts its lease and fails; worker-2 holds the lock with the same value, so worker-1's DELEX IFEQ deletes it and worker-3 gets in.",
  source: import.meta.url,
  steps: { token: () => 'locked' }, // the mistake: every holder's value is this one
});
