// The cron schedule and the nodes' clocks. Every node runs the same schedule ("once per
// slot, at the slot's start") by its own clock, and node-k's clock is (k-1) × skewMs
// behind node-1's, so node-k fires (k-1) × skewMs late in real time. Where libfaketime is
// installed the node's own wall clock is moved; elsewhere only the clock is simulated.
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

/** Each node's clock against the host's, in ms, in node order (node-1's is the true one). */
export const clockOffsetsMs = (params: Params): number[] => nodeIds(params).map((_, i) => -fireAtMs(params, i));

/**
 * `moved`: the process's own wall clock is already behind (libfaketime, see ../../runs/runLab.ts),
 * so Date.now() reads the node's time as a badly synced host would; otherwise the skew is taken off here.
 */
export function nodeClock(params: Params, nodeIndex: number, moved: boolean): NodeClock {
  const behindMs = nodeIndex * intParam(params, 'skewMs');
  return { behindMs, now: moved ? () => Date.now() : () => Date.now() - behindMs };
}

export const slotAt = (schedule: Schedule, clockMs: number): number => Math.floor((clockMs - schedule.startMs) / schedule.slotMs);

export const slotEndMs = (schedule: Schedule, slot: number): number => schedule.startMs + (slot + 1) * schedule.slotMs;

/** When node i fires, in real ms after slot 0 starts on a correct clock. */
export const fireAtMs = (params: Params, nodeIndex: number): number => nodeIndex * intParam(params, 'skewMs');
