// How long a failover run may last, in ms: setup, worker-1's WAIT, Sentinel's down-after
// and failover, and both workers' work, with room to spare. The locks' lease is as long,
// so in this lab a lock is lost with a primary, never by expiring.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';

export const deadlineMs = (params: Params): number =>
  45_000 + 4 * intParam(params, 'downAfterMs') + 2 * intParam(params, 'waitTimeoutMs') + 2 * intParam(params, 'workMs');
