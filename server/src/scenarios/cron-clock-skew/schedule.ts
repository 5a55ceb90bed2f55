// The cron schedule and the nodes' clocks. Every node runs the same schedule ("once per
// slot, at the slot's start") by its own clock, and node-k's clock is (k-1) × skewMs
// behind node-1's, so node-k fires (k-1) × skewMs late in real time. Only the clock is
// simulated; the processes, the lock and the rows are real.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';

export interface NodeClock {
  /** How far this node's clock is behind node-1's, in ms. */
  behindMs: number;
  /** What this node's clock reads now, in ms since the epoch. */
  now(): number;
}

export interface Schedule {
  /** Start of slot 0, in ms since the epoch (on a correct clock). */
  startMs: number;
  /** The schedule's period: the job is due once per slot. */
  slotMs: number;
}

export function nodeIds(params: Params): string[] {
  return Array.from({ length: intParam(params, 'nodes') }, (_, i) => `node-${i + 1}`);
}

export function nodeClock(params: Params, nodeIndex: number): NodeClock {
  const behindMs = nodeIndex * intParam(params, 'skewMs');
  return { behindMs, now: () => Date.now() - behindMs };
}

export const slotAt = (schedule: Schedule, clockMs: number): number =>
  Math.floor((clockMs - schedule.startMs) / schedule.slotMs);

export const slotEndMs = (schedule: Schedule, slot: number): number => schedule.startMs + (slot + 1) * schedule.slotMs;

/** When node i fires, in real ms after slot 0 starts on a correct clock. */
export const fireAtMs = (params: Params, nodeIndex: number): number => nodeIndex * intParam(params, 'skewMs');
