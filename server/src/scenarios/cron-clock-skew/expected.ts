// Where each cron-clock-skew variant gives the other verdict than its kind's, from the
// parameters alone: node-k fires (k-1) × skew late, so the last node is the latest.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';
import { GUARD_MS } from './choreography.js';

/** How late the last node fires, in real ms after the slot starts. */
const lastFiresMs = (params: Params): number => (intParam(params, 'nodes') - 1) * intParam(params, 'skewMs');

/**
 * lock-per-slot fails where the slot's key has expired when the last node fires, or ends less
 * than GUARD_MS after it (played as expired, choreography.ts); a key that ends exactly
 * GUARD_MS after it is held.
 */
export function slotShorterThanSkew(params: Params): string | null {
  const slotMs = intParam(params, 'slotMs');
  const lateMs = lastFiresMs(params);
  if (lateMs >= slotMs)
    return `the slot (${slotMs} ms) is shorter than the clock skew (${lateMs} ms): the key expires before the late node's slot begins`;
  if (lateMs > slotMs - GUARD_MS)
    return `the late node fires ${lateMs} ms into a ${slotMs} ms slot, with the key less than ${GUARD_MS} ms from expiring: it is played as expired`;
  return null;
}

/** release-when-done passes where every later node fires while node-1's job still holds the lock. */
export function everyNodeFiresDuringTheJob(params: Params): string | null {
  const jobMs = intParam(params, 'jobMs');
  const lateMs = lastFiresMs(params);
  if (lateMs >= jobMs) return null;
  return `the skew (${lateMs} ms) is shorter than the job (${jobMs} ms): every later node fires while the lock is still held, so none runs the slot again`;
}
