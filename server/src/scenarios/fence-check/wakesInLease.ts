// Where a broken check has nothing to get wrong: worker-1 wakes from its pause while its
// own lease is still live, so no write of any ordering is stale and every check passes.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';

/** The reason a broken variant passes at these parameters, or null where a stale write comes. */
export function wakesInLease(params: Params): string | null {
  const leaseMs = intParam(params, 'leaseMs');
  const pauseMs = intParam(params, 'pauseMs');
  if (pauseMs >= leaseMs) return null;
  return `worker-1's pause (${pauseMs} ms) is shorter than its lease (${leaseMs} ms): it wakes while its lease is live, so no write is stale`;
}
