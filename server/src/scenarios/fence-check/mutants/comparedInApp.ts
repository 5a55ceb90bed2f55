import { mutantOf } from '../../types.js';
import databaseGuard from '../variants/databaseGuard.js';
import { checkThenWrite } from '../variants/greaterThanInApp.js';

export default mutantOf(databaseGuard, {
  id: 'compared-in-app',
  mistake: 'moves the fence comparison out of the WHERE into the application, a read before the write',
  failsAt: {},
  title: 'Fence read, compared in the application, then written',
  summary:
    'The same rule, fence < new, checked on a value read a moment earlier: a newer holder that writes in that moment is overwritten.',
  source: import.meta.url,
  checkpoints: ['before-write', 'between-check-and-write'],
  // The mistake: the check and the write are two statements; anything can come between them.
  steps: { write: checkThenWrite },
});
