// Where a broken check has nothing to get wrong: worker-1 wakes from its pause while its
// own lease is still live, so no write of any ordering is stale and every check passes.
import type { Params } from '@racelab/shared';
import { endsInsideLease, stallOf } from '../kit/leaseEdge.js';

/** worker-1's pause against its lease: it writes as soon as it wakes. */
export const pauseAgainstLease = (params: Params) => stallOf(params, 'pauseMs', false);

/** The reason a broken variant passes at these parameters, or null where a stale write comes. */
export function wakesInLease(params: Params): string | null {
  const pause = pauseAgainstLease(params);
  if (!endsInsideLease(pause)) return null;
  return `worker-1's pause (${pause.stallMs} ms) ends ${pause.edgeMs} ms or more inside its lease (${pause.leaseMs} ms): it wakes while its lease is live, so no write is stale`;
}
