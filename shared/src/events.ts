// The timeline event model: every fact about a run, recorded once where it happened.
// Workers may emit only WorkerEvent types; the server adds the rest (process faults,
// what the stores hold, the verdict). `atMs` is ms since the run started, on the
// host-wide monotonic clock every process shares.
import { z } from 'zod';
import { FaultRule } from './faultRule.js';
import { ExpectationResult, Metrics, MetricValue, VerdictWord } from './verdict.js';

const key = z.string().min(1).max(300);
const value = MetricValue;
/**
 * The network and clock faults a lab stages (see fault-staged); `rejoin` ends an `isolation`,
 * as `partition-healed` ends a partition and `slowdown-ended` a `slowdown` (a lab node slowed).
 * `pooling`: the workers' connections pass through a pooler that lends one server connection
 * to whichever client's transaction comes next (PgBouncer in transaction mode).
 */
const StagedFaultKind = z.enum([
  'partition',
  'partition-healed',
  'isolation',
  'rejoin',
  'slowdown',
  'slowdown-ended',
  'clock-skew',
  'clock-jump',
  'slow-link',
  'pooling',
]);

/** How a slowdown slows its node: ms added each way, and the share of the traffic lost. */
const SlowdownBody = z.object({ latencyMs: z.number().nonnegative(), lossPercent: z.number().nonnegative() });
export type SlowdownBody = z.infer<typeof SlowdownBody>;

/** Where a staged fault strikes, as fields (each null when the fault has none). */
const faultPlace = {
  /** The lab node: isolated, slowed, cut from `worker` by a split, whose clock jumped, or a slow link's sending end. */
  node: z.string().max(40).nullable(),
  /** The lab node at the other end of a link between two nodes (a slow link's far replica). */
  peer: z.string().max(40).nullable(),
  /** The worker whose link or clock it strikes (with `node`: the worker's link to that node). */
  worker: z.string().max(40).nullable(),
  /** What a slowdown adds; null for every other fault. */
  slowdown: SlowdownBody.nullable(),
};

/** Facts a worker reports about itself through its one `emit`. */
export const workerEventBodies = [
  z.object({ type: z.literal('job-fired') }),
  z.object({ type: z.literal('lease-requested'), key }),
  z.object({
    type: z.literal('lease-acquired'),
    key,
    /** Lease length in ms; null when the lock never expires. */
    ttlMs: z.number().int().nullable(),
    /**
     * When the command that granted the lease was sent (run clock). Redis starts the TTL
     * no earlier, so the lease is certain only until fromMs + ttlMs, however late the
     * reply came back (Redlock's validity counts the same way). Absent: from this event.
     */
    fromMs: z.number().nonnegative().optional(),
    token: z.string().max(200).optional(),
    fence: z.number().int().optional(),
  }),
  z.object({ type: z.literal('lease-denied'), key, heldBy: z.string().max(200).nullable() }),
  z.object({ type: z.literal('lease-wait-started'), key }),
  /** fromMs: when the EXPIRE was sent, as for lease-acquired. */
  z.object({ type: z.literal('lease-expiry-set'), key, ttlMs: z.number().int(), fromMs: z.number().nonnegative().optional() }),
  /** `deleted` is what Redis answered: how many keys the release removed. */
  z.object({ type: z.literal('lease-released'), key, deleted: z.number().int() }),
  z.object({ type: z.literal('work-started'), label: z.string().max(200) }),
  z.object({ type: z.literal('work-finished'), label: z.string().max(200) }),
  /**
   * A synchronous task of the worker's own (`task`, e.g. "synchronous task") took its event
   * loop: no timer, I/O callback or lease renewal of the process runs until it ends.
   */
  z.object({ type: z.literal('event-loop-blocked'), task: z.string().max(200) }),
  /** That task ended; blockedMs is how long the loop was blocked, as the worker measured it. */
  z.object({ type: z.literal('event-loop-unblocked'), task: z.string().max(200), blockedMs: z.number().nonnegative() }),
  /**
   * The worker's own clock reads offsetMs off the clock of `reference` (a worker id);
   * negative: behind it. Reported when the worker acts by its clock.
   */
  z.object({
    type: z.literal('clock-skewed'),
    offsetMs: z.number(),
    reference: z.string().min(1).max(40),
    /** How the clock is off: "libfaketime" (the process's own wall clock moved) or "simulated clock"; absent in older recordings. */
    mechanism: z.string().max(60).optional(),
  }),
  z.object({
    type: z.literal('write-accepted'),
    target: z.string().max(200),
    value,
    fence: z.number().int().optional(),
  }),
  z.object({
    type: z.literal('write-rejected'),
    target: z.string().max(200),
    value,
    fence: z.number().int().optional(),
    reason: z.string().max(500),
  }),
  z.object({ type: z.literal('job-skipped'), reason: z.string().max(500) }),
  /** A read of shared state, e.g. the stock row, with its version when it has one. */
  z.object({
    type: z.literal('value-read'),
    target: z.string().max(200),
    value,
    version: z.number().int().optional(),
  }),
  /** Blocked on something outside the process: a row lock, a lock held by another, a poll. */
  z.object({ type: z.literal('wait-started'), reason: z.string().max(200) }),
  z.object({ type: z.literal('wait-finished'), reason: z.string().max(200) }),
  /** A call to another service finished, e.g. the token provider answered 401. */
  z.object({
    type: z.literal('call-finished'),
    target: z.string().max(200),
    status: z.number().int(),
    durationMs: z.number(),
  }),
  z.object({ type: z.literal('retry-scheduled'), reason: z.string().max(500) }),
  z.object({ type: z.literal('checkpoint-reached'), checkpoint: z.string().max(100) }),
  z.object({ type: z.literal('note'), text: z.string().max(1000) }),
] as const;

/** Facts only the server records: process faults, store observations, the run's life. */
export const serverEventBodies = [
  z.object({
    type: z.literal('run-started'),
    scenario: z.string(),
    variant: z.string(),
    correct: z.boolean(),
    params: z.record(z.string(), z.union([z.number(), z.string(), z.array(z.number())])),
    workers: z.array(z.string()),
    /** Time scale the run played at; its durations were divided by it. */
    speed: z.number().default(1),
    faults: z.array(FaultRule).default([]),
    /** The workers that run as lab hosts of their own: a live partition may cut their link. */
    hosts: z.array(z.string()).default([]),
    /** The lab nodes a live or planned isolate may cut from every worker, and a slow may slow (redlock's Redis nodes). */
    nodes: z.array(z.string()).default([]),
  }),
  /** pid on the host the worker runs on; host: the worker agent's name, absent for the server's own child. */
  z.object({ type: z.literal('worker-started'), pid: z.number().int(), host: z.string().max(100).optional() }),
  /** plannedMs null: paused from the page, until it is resumed. */
  z.object({ type: z.literal('process-paused'), plannedMs: z.number().nullable() }),
  z.object({ type: z.literal('process-resumed') }),
  z.object({ type: z.literal('process-killed'), signal: z.string() }),
  z.object({
    type: z.literal('worker-exited'),
    code: z.number().int().nullable(),
    signal: z.string().nullable(),
    /** Its part ended well and its process went back to the warm pool for the next run instead of exiting (code 0). */
    pooled: z.literal(true).optional(),
  }),
  /** What Redis holds for a watched key, observed by the server: value null = no key. */
  z.object({
    type: z.literal('key-observed'),
    key,
    value: z.string().max(2000).nullable(),
    /** PTTL as Redis reports it: -1 no expiry, -2 no key. */
    pttlMs: z.number().int(),
    /**
     * How a key went, as Redis's keyspace notification said (a DEL, its expiry, an eviction);
     * absent while it is there, or when no notification told (a Redis that does not notify).
     */
    gone: z.enum(['deleted', 'expired', 'evicted']).optional(),
  }),
  /**
   * A lock that lives on a lab's own Redis nodes (redlock's five, failover's primary and
   * replicas), observed by the server: `token` is held by as many of the nodes as the lock
   * needs (a majority for Redlock) for pttlMs more. Logged when a token comes to be so held
   * and each time that grows (a renewal): the nodes' own expiries, not what a worker said.
   */
  z.object({
    type: z.literal('lock-held'),
    key,
    token: z.string().max(2000),
    pttlMs: z.number().int().nonnegative(),
  }),
  /**
   * What a store other than the run's Redis keys holds, observed by the server: a row of
   * PostgreSQL, or what a scenario's own lab holds (a Redis node, Sentinel, the token
   * provider, an upload target). `store` names it; absent (runs recorded before stores
   * were named): PostgreSQL.
   */
  z.object({
    type: z.literal('row-observed'),
    store: z.string().max(60).optional(),
    target: z.string().max(200),
    value: z.string().max(2000).nullable(),
  }),
  z.object({
    type: z.literal('run-finished'),
    metrics: Metrics,
    expectations: z.array(ExpectationResult),
    verdict: VerdictWord,
    /** The verdict expected at the run's parameters, and why when it is not its variant's kind's; absent in older recordings. */
    expectedVerdict: VerdictWord.optional(),
    expectedReason: z.string().max(500).optional(),
  }),
  /**
   * A network or clock fault the run's lab arranged, and the mechanism that plays it: a
   * partition by the kernel ("kernel nftables drop", "kernel link down") or by a proxy, a
   * clock moved by libfaketime or the wall clock shim ("LD_PRELOAD wall clock"), or simulated.
   * workerId: the worker it strikes, or whose process plays it (redlock's clock jump), or null.
   */
  z.object({
    type: z.literal('fault-staged'),
    fault: StagedFaultKind,
    /** The fault in words, for people ("node-4 from worker-2"); code reads the fields below. */
    target: z.string().max(200),
    mechanism: z.string().max(60),
    ...faultPlace,
  }),
  z.object({ type: z.literal('run-failed'), message: z.string() }),
] as const;

/** A fault-staged event as the lab declares it, before the run logs it. */
export interface StagedFault {
  fault: z.infer<typeof StagedFaultKind>;
  target: string;
  mechanism: string;
  node: string | null;
  peer: string | null;
  worker: string | null;
  slowdown: SlowdownBody | null;
  workerId?: string;
}

const stamp = {
  /** Ordinal assigned by the server as the event is appended to the run's log. */
  seq: z.number().int().nonnegative(),
  /** Ms since the run started (host-wide monotonic clock). */
  atMs: z.number(),
  /** The worker the fact is about; null for facts about the run or the stores. */
  workerId: z.string().max(40).nullable(),
};

export const WorkerEventBody = z.discriminatedUnion('type', [...workerEventBodies]);
export type WorkerEventBody = z.infer<typeof WorkerEventBody>;

/** An event as a worker sends it over IPC: stamped, not yet numbered. */
export const WorkerEvent = z.discriminatedUnion(
  'type',
  workerEventBodies.map((b) => b.extend({ atMs: stamp.atMs, workerId: z.string().max(40) })) as unknown as [
    (typeof workerEventBodies)[number],
    ...(typeof workerEventBodies)[number][],
  ],
);

export const RunEvent = z.discriminatedUnion(
  'type',
  [...workerEventBodies, ...serverEventBodies].map((b) => b.extend(stamp)) as unknown as [
    (typeof workerEventBodies)[number],
    ...(typeof workerEventBodies)[number][],
  ],
);

type Stamp = z.infer<z.ZodObject<typeof stamp>>;
type AnyBody = z.infer<(typeof workerEventBodies)[number]> | z.infer<(typeof serverEventBodies)[number]>;

/** One fact on a run's timeline. */
export type RunEvent = AnyBody & Stamp;
export type RunEventType = RunEvent['type'];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
export type ServerEventBody = z.infer<(typeof serverEventBodies)[number]>;
/** A worker's event before the server numbers it. */
export type StampedWorkerEvent = WorkerEventBody & { atMs: number; workerId: string };

/** Parses an event from a worker; returns null when it does not match the model. */
export function parseWorkerEvent(input: unknown): StampedWorkerEvent | null {
  const result = WorkerEvent.safeParse(input);
  return result.success ? (result.data as StampedWorkerEvent) : null;
}

/** Parses a recorded or streamed run event; returns null when it does not match the model. */
export function parseRunEvent(input: unknown): RunEvent | null {
  const result = RunEvent.safeParse(input);
  return result.success ? (result.data as RunEvent) : null;
}
