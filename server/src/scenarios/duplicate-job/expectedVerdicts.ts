// Where a duplicate-job variant gives the other verdict than its kind's, from the
// parameters alone: the arrival choreography decides who can meet whom.
import type { Params } from '@racelab/shared';
import { choiceParam, intParam } from '../types.js';

/** One container: no one to duplicate the e-mail, whatever the lock. */
export function onlyOneContainer(params: Params): string | null {
  return intParam(params, 'workers') === 1 ? 'one container: nobody else can send the report' : null;
}

/**
 * Arriving together, every container tries while the first one holds the lock and none
 * comes after it: a lease that expires, or a DEL of another's lock, has no one to let in.
 */
export function noneComesLater(params: Params): string | null {
  return choiceParam(params, 'arrival') === 'together'
    ? 'every container tries while the first holds the lock and none comes later: nobody is let in by the DEL'
    : null;
}

/** Containers arriving late: worker-2 fires once worker-1's lock is gone, and a lock does not remember the job ran. */
export function lockForgetsTheJob(params: Params): string | null {
  if (choiceParam(params, 'arrival') !== 'late' || intParam(params, 'workers') < 2) return null;
  return 'worker-2 fires after worker-1\'s lock is gone (released or expired): a lock does not remember that the job already ran';
}
