// Where a cron-every-replica variant gives the other verdict than its kind's, or would give
// one by luck, from the parameters alone: replica-k fires (k-1) × skew late, so the last is the latest.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';
import { dueAtMs, replicaIds, SLOT_MS } from './schedule.js';

/** Least distance of a replica's firing from the end of the slot's lock, in ms: how late a busy machine may let a replica try. */
export const LOCK_END_MARGIN_MS = 300;

/** How late the last replica fires, in real ms after the slot starts. */
const lastFiresMs = (params: Params): number => dueAtMs(params, intParam(params, 'replicas') - 1);

/** lock-per-slot fails where the last replica fires after the slot, and the slot's key with it, has ended. */
export function lateByMoreThanASlot(params: Params): string | null {
  const lateMs = lastFiresMs(params);
  if (lateMs < SLOT_MS) return null;
  return `the last replica's clock is ${lateMs} ms late, more than the ${SLOT_MS} ms slot: the slot's key has expired when it fires, and it sends the report again`;
}

/** Why a lock that ends with the slot would be found or not by luck at these parameters, or null. */
export function firesAsTheLockEnds(params: Params): string | null {
  const near = replicaIds(params).findIndex((_, i) => Math.abs(dueAtMs(params, i) - SLOT_MS) < LOCK_END_MARGIN_MS);
  if (near === -1) return null;
  const dueMs = dueAtMs(params, near);
  return `replica-${near + 1} fires ${dueMs} ms after the slot starts, within ${LOCK_END_MARGIN_MS} ms of its lock's end (${SLOT_MS} ms), where whether it finds the key would be luck: use a skew that keeps every replica at least ${LOCK_END_MARGIN_MS} ms from it`;
}
