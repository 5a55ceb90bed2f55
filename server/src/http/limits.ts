// What a page may ask of the server, bounded: the rate and size of its messages, the runs
// it, its address and the whole server may have going or in line, the worker processes, how far
// behind a reader may fall, and the heartbeat. DEFAULT_LIMITS are the server's own (tests
// pass others).
import { MAX_CLIENT_FRAME_BYTES } from '@racelab/shared';

export interface SocketLimits {
  /** Largest frame answered normally; a bigger one gets an error and the connection carries on. */
  maxFrameBytes: number;
  /** Largest frame ws reads at all; past it ws closes the connection with 1009. */
  maxPayloadBytes: number;
  /** Messages per second a connection may send on average (token bucket refill) … */
  messagesPerSecond: number;
  /** … and in one burst (bucket size). The excess is answered "too many messages: slow down" and dropped. */
  messageBurst: number;
  /** Runs one connection may have going at once. */
  maxRunsPerConnection: number;
  /** Runs the pages of one network address may have going at once (a room server: no visitor takes every slot). */
  maxRunsPerAddress: number;
  /** Addresses the per-address cap leaves alone: this machine's own user (loopback) by default. */
  isTrustedAddress(address: string): boolean;
  /** Runs the whole server may have going at once. */
  maxRunsPerServer: number;
  /** Worker processes the whole server may have going at once: each holds a Redis and a PostgreSQL connection. */
  maxWorkersPerServer: number;
  /** Starts that may wait in line for a slot (queueDesk.ts); past it a start is answered "busy: the line is full". */
  maxQueuedPerServer: number;
  /** A server whose run slots are all taken reports not ready (/readyz) once this many starts wait in line. */
  queuedWhenNotReady: number;
  /** How long a page's places in line wait for it after its socket drops, in ms. */
  queueGraceMs: number;
  /** A client further behind than this is dropped rather than buffered without bound, in bytes. */
  maxBufferedBytes: number;
  /** Ping interval; a peer that misses a pong is gone. */
  heartbeatMs: number;
  /** How long closing waits for cancelled runs to clean up and tell their pages, in ms. */
  closeGraceMs: number;
}

export const DEFAULT_LIMITS: SocketLimits = {
  maxFrameBytes: MAX_CLIENT_FRAME_BYTES,
  maxPayloadBytes: 1024 * 1024,
  messagesPerSecond: 100,
  messageBurst: 100,
  maxRunsPerConnection: 2,
  maxRunsPerAddress: 4,
  isTrustedAddress: (address) => address === '127.0.0.1' || address === '::1' || address.startsWith('::ffff:127.'),
  maxRunsPerServer: 12,
  maxWorkersPerServer: 48,
  // A room of 200 pages, each with at most maxRunsPerConnection starts, fits in one server's line.
  maxQueuedPerServer: 400,
  queuedWhenNotReady: 6,
  queueGraceMs: 15_000,
  maxBufferedBytes: 8 * 1024 * 1024,
  heartbeatMs: 30_000,
  closeGraceMs: 5000,
};

/**
 * Runs a machine takes at once per core, measured with a simulated room (BENCHMARKS.md,
 * "Workshop"): a run of the seed chapters costs 1.2 to 1.5 CPU-seconds over a 4 to 6 s slot,
 * so three runs a core keep it busy without starving the workers' timing; 36 slots on two
 * cores (18 a core) drowned the machine and the runs lost their verdicts.
 */
export const RUNS_PER_CORE = 3;

/** The run slots of each of `servers` servers sharing a machine of `cores` cores: RUNS_PER_CORE a core, at least one each. */
export function runSlotsFor(cores: number, servers = 1): number {
  return Math.max(1, Math.round((RUNS_PER_CORE * cores) / servers));
}

/** Runs one page may have going at once. */
export const MAX_RUNS_PER_CONNECTION = DEFAULT_LIMITS.maxRunsPerConnection;
/** Runs the whole server may have going at once. */
export const MAX_RUNS_PER_SERVER = DEFAULT_LIMITS.maxRunsPerServer;
/** What a busy server suggests a page waits before it asks again, in ms. */
export const BUSY_RETRY_AFTER_MS = 1000;
export const TOO_MANY_MESSAGES = 'too many messages: slow down';
