// The one interface every lock runs behind: the npm libraries racelab pits against its
// faults (./libraries/), and a module of your own (`racelab check --lock ./my-lock.mjs`).
// A module exports `create(connections)` (or a default object with it) that returns a
// LockAdapter; it may also export `name`, `version`, `redisKey`, `renews`, `fences`,
// `spansNodes` and `answersAtMajority` (see LockModule).
import type { Redis } from 'ioredis';

/** Where an adapter finds the stores, inside one worker process of one run. */
export interface LockConnections {
  /**
   * An ioredis connection of this worker, scoped to the run: it prefixes every key with
   * the run's prefix, so `acquire('lock:x')` stores the lock at the run's own key. In a lab
   * with a Redis of its own it is that Redis: in failover, the primary as Sentinel names
   * it (the connection follows a failover by itself).
   */
  redis: Redis;
  /**
   * The independent Redis nodes a lock of several nodes (Redlock) spans, each put where the
   * lab looks for the lock: in the redlock lab its five nodes as this worker's network
   * reaches them (a node out of reach never answers: its commands time out after a short
   * while, as a Redlock client's per-node timeout would have them); elsewhere `[redis]`.
   */
  nodes: Redis[];
  /** The run's key prefix, for a client of your own (`new Redis(redisUrl, { keyPrefix })`). */
  keyPrefix: string;
  redisUrl: string;
  /** PostgreSQL, for a lock kept there; name it with `keyPrefix` too, to stay in the run. */
  databaseUrl: string;
}

/** A lock as the scenarios use it; `Handle` is whatever the lock needs to release it. */
export interface LockAdapter<Handle = unknown> {
  /** Tries once to take the lock `key` for `ttlMs`; the handle when taken, null when another holds it. */
  acquire(key: string, ttlMs: number): Promise<Handle | null>;
  /** Gives the lock back; a lock already lost is no error. */
  release(handle: Handle): Promise<void>;
  /** Pushes the lock's expiry out by `ttlMs`, when the lock can. */
  extend?(handle: Handle, ttlMs: number): Promise<void>;
  /**
   * The value this grant stored at the lock's key, when the library tells it: the scenarios
   * that follow a lease's grants match it against what Redis holds (without it, they read the
   * key right after the grant).
   */
  value?(handle: Handle): string;
  /** The grant's fencing token, a number that grows with every grant, when the lock gives one. */
  fence?(handle: Handle): number;
  /** Closes what `create` opened. */
  close?(): Promise<void>;
}

/** A lock module: how to make its adapter, and what it is. */
export interface LockModule<Handle = unknown> {
  /** The library's name as npm spells it, or the module's own. */
  name: string;
  /** The exact version racelab runs it at ('local' for a module of your own). */
  version: string;
  /** The variant's id on the page: kebab-case. */
  id: string;
  /** The module's own URL (import.meta.url): the page shows its code. */
  source: string;
  /** One line: what the lock is and what it promises. */
  summary: string;
  /** Does the lock renew itself while its holder runs (a watchdog)? */
  renews: boolean;
  /**
   * A lock that renews: after what fraction of its lease it renews (redis-semaphore: 0.8).
   * A lab refuses a lease so short that a renewal has less than RENEWAL_EDGE_MS to land
   * (../scenarios/kit/leaseEdge.ts). Absent: its renewals are taken as in time.
   */
  renewsAt?: number;
  /** Does a grant come with a fencing token? */
  fences: boolean;
  /** Does the lock take a majority of `connections.nodes` (Redlock), not one Redis? The Redlock lab's faults apply to it only then. */
  spansNodes: boolean;
  /**
   * A lock of several nodes: does it answer as soon as a majority agreed, not waiting for the
   * rest (a node out of reach then costs it nothing)? Absent: it waits for every node's answer.
   */
  answersAtMajority?: boolean;
  /** Where in the run's key space the lock lives for `key`, when the library adds a prefix of its own; null: not in Redis. */
  redisKey(key: string): string | null;
  /**
   * The lock over these connections. A library's adapter imports its npm package here, not at
   * the top of its file: a worker process then loads the library only for a run of its
   * variant (the worker bundle keeps each in a chunk of its own, scripts/bundleWorker.mjs).
   */
  create(connections: LockConnections): LockAdapter<Handle> | Promise<LockAdapter<Handle>>;
}

/** Identity function that gives a lock module its types. */
export function defineLock<Handle>(module: LockModule<Handle>): LockModule {
  return module;
}
