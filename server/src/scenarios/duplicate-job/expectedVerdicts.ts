// Where a duplicate-job variant gives the other verdict than its kind's, from the
// parameters alone: the arrival choreography decides who can meet whom, and a failing
// fetch who is left to send the report.
import type { Params } from '@racelab/shared';
import { choiceParam, intParam } from '../types.js';
import { REST_MARGIN_MS, secondLeaseLeftMs } from './nightlyJob.js';

const workers = (params: Params): number => intParam(params, 'workers');
const late = (params: Params): boolean => choiceParam(params, 'arrival') === 'late';
const firstFails = (params: Params): boolean => choiceParam(params, 'failure') === 'first-fails';

/** One container: no one to duplicate the e-mail, whatever the lock. */
export function onlyOneContainer(params: Params): string | null {
  if (workers(params) !== 1 || firstFails(params)) return null;
  return 'one container: nobody else can send the report';
}

/**
 * Arriving together, every container tries while the first one holds the lock and none
 * comes after it: a lease that expires, or a DEL of another's lock, has no one to let in.
 */
export function noneComesLater(params: Params): string | null {
  if (late(params) || firstFails(params)) return null;
  return 'every container tries while the first holds the lock and none comes later: nobody is let in by the DEL';
}

/** Containers arriving late: worker-2 fires once worker-1's lock is gone, and a lock does not remember the job ran. */
export function lockForgetsTheJob(params: Params): string | null {
  if (!late(params) || workers(params) < 2 || firstFails(params)) return null;
  return "worker-2 fires after worker-1's lock is gone (released or expired): a lock does not remember that the job already ran";
}

/** The first container's fetch fails with two containers: the other one sends the one report (no lock, or one it waits for). */
export function oneLeftToSend(params: Params): string | null {
  if (!firstFails(params) || workers(params) !== 2) return null;
  return "the first container's fetch fails and it sends nothing: the one container left sends the one report";
}

/**
 * The first holder's fetch fails and no container comes after it: a lock whose losers
 * skip leaves the job undone (one container, or all arriving together while it holds it).
 */
export function nobodyLeftToRetry(params: Params): string | null {
  if (!firstFails(params)) return null;
  if (workers(params) === 1) return "the only container's fetch fails: nobody is left to send the report";
  if (!late(params)) {
    return 'every container tries while the first holder holds the lock, and its fetch fails: losers skip and none comes later to run the job';
  }
  return null;
}

/**
 * Arriving late, worker-1's fetch fails and it sends nothing; its blind DEL lets nobody in
 * when no third container comes, or when the fetch failed inside its own lease.
 */
export function nobodyForTheDelToLetIn(params: Params): string | null {
  if (!firstFails(params) || !late(params)) return null;
  if (workers(params) === 2)
    return "worker-1's fetch fails and it sends nothing; worker-2 sends, and no third container comes for the DEL to let in";
  if (workers(params) < 3 || intParam(params, 'workMs') >= intParam(params, 'leaseMs')) return null;
  if (secondLeaseLeftMs(params) < REST_MARGIN_MS) return null; // the rest let worker-2's short lease lapse
  return "worker-1's fetch fails before its lease lapses: its DEL removes only its own lock, and the rest find worker-2's";
}

/**
 * Arriving late with worker-1's fetch failing, the rest fire once it is done: when worker-2's
 * lease has lapsed by then (worker-1's fetch lasting two leases), or has less than
 * REST_MARGIN_MS left and is let lapse (nightlyJob.ts), a third container gets in.
 */
export function secondLeaseLapses(params: Params): string | null {
  if (!firstFails(params) || !late(params) || workers(params) < 3) return null;
  const leftMs = secondLeaseLeftMs(params);
  if (leftMs >= REST_MARGIN_MS) return null;
  if (leftMs <= 0)
    return "worker-1's fetch (workMs) lasts two leases: worker-2's lease too has lapsed when the rest fire, and a third container takes the lock";
  return `worker-2's lease has ${leftMs} ms left when the rest fire, too little to find it in time: they let it lapse, and the rest take the lock in turn`;
}
