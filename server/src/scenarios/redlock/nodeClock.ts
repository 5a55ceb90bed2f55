// The jumping node's clock as the server sees it, for the timeline's "node-3 clock" row. Where
// the node runs on a movable clock (cluster.ts), it is read from the node itself: its TIME
// against another node's, which runs on the host's clock. Where the jump is simulated, the
// simulation keeps its total on the node (clockJump.ts), and that is what the row shows.
import type { Redis } from 'ioredis';
import { CLOCK_OFFSET_KEY } from './keys.js';

/** Reads tried per look for one quick enough to pin the offset to the ms; under that, the look tells nothing. */
const TRIES = 10;
const US_PER_MS = 1000;

async function timeUs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1_000_000 + Number(micros);
}

/**
 * How far `node`'s wall clock is ahead of `reference`'s, in whole ms (the wall clock shim
 * moves a clock by whole ms), from their TIME; null when no read of TRIES was quick enough.
 */
export async function clockAheadMs(node: Redis, reference: Redis): Promise<number | null> {
  for (let i = 0; i < TRIES; i++) {
    const before = await timeUs(reference);
    const at = await timeUs(node);
    const after = await timeUs(reference);
    // The node read its clock between the reference's two reads, so its offset lies strictly
    // between at − after − 1 and at − before + 1 µs (each TIME drops what is below its µs).
    // An open interval no wider than a ms holds at most one whole ms: the offset.
    const [low, high] = [at - after - 1, at - before + 1];
    const offsetMs = Math.floor(low / US_PER_MS) + 1;
    if (high - low <= US_PER_MS && offsetMs * US_PER_MS < high) return offsetMs;
  }
  return null;
}

/** The simulated clock's total jump on `node`, in ms (0 before any). */
export async function simulatedAheadMs(node: Redis): Promise<number> {
  return Number((await node.get(CLOCK_OFFSET_KEY)) ?? 0);
}

/** "+1000 ms": a clock's lead, as the row shows it. */
export const aheadWords = (ms: number): string => `${ms < 0 ? '−' : '+'}${Math.abs(ms)} ms`;
