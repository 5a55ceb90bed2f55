// Every message on the page's WebSocket, in one union per direction.
// Both are zod schemas: the server parses what a page sends, the page parses what the
// server sends, and the types are inferred from the schemas, never written beside them.
import { z } from 'zod';
import { ScenarioManifest } from './catalog.js';
import { RunEvent } from './events.js';
import { EXERCISE_MAX_BYTES } from './exerciseNames.js';
import { LatencyMs, LiveFaultAction, LossPercent, PlannedFault, type FaultRule } from './faultRule.js';
import { parseJsonBy } from './parseJson.js';
import { MAX_SCHEDULE_TEXT } from './schedule.js';

export { describeIssue } from './parseJson.js';

/** Largest frame the server accepts from a page, in bytes. */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024;

/** Slowest and fastest time scale of a run: 0.25 runs every sleep and TTL four times longer. */
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 2;
/** Most fault rules one run may carry. */
export const MAX_FAULTS = 20;

const id = z.string().min(1).max(100);

/** The key of a place in line: whoever says it may take the place again after a reconnect. */
const QueueKey = z.string().regex(/^[a-f0-9]{1,64}$/);

/** Most starts a server keeps in line; the position a run-queued may name. */
export const MAX_QUEUE_POSITION = 10_000;

/** A run's fault plan, from a page's start-run or a file given to the CLI (--faults). */
export const FaultPlan = z.array(PlannedFault).max(MAX_FAULTS);

/** A fault plan's text (a file's) read as JSON and then as a plan, with the reason in words when it is neither; `what` names it. */
export function parseFaultPlan(text: string, what: string): { ok: true; value: FaultRule[] } | { ok: false; error: string } {
  return parseJsonBy(FaultPlan, text, {
    notJson: (error) => `${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    invalid: () => `${what} is not a list of fault rules`,
  });
}

/** What one parameter may look like on the wire before the manifest checks it: a number, a
 *  string or a flat list of them. Nothing nested, so nothing deep reaches the server's code. */
const paramValue = z
  .unknown()
  .refine(
    (v) =>
      typeof v === 'number' ||
      (typeof v === 'string' && v.length <= 1000) ||
      typeof v === 'boolean' ||
      v === null ||
      (Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === 'number' || (typeof x === 'string' && x.length <= 100))),
    { message: 'a parameter is a number, a string or a list of them' },
  );

// Strict objects: a field the protocol does not know is refused, never ignored, so a page
// can only name a scenario, a variant and bounded parameters, never send SQL, Lua or keys.
export const ClientMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('start-run'),
    /** Chosen by the page to match the answer to the request. */
    requestId: id,
    scenario: id,
    variant: id,
    params: z.record(z.string().max(100), paramValue).default({}),
    /** The fault plan; the variant's own when absent. Checkpoints must be the variant's. */
    faults: FaultPlan.optional(),
    /** Time scale: every duration of the run is divided by it (0.5 = half speed). */
    speed: z.number().min(MIN_SPEED).max(MAX_SPEED).default(1),
    /** An exercise's edited code, run as the variant `your-fix` (EXERCISE_VARIANT_ID) where the server allows it. */
    exercise: z.strictObject({ code: z.string().max(EXERCISE_MAX_BYTES) }).optional(),
    /**
     * A schedule the explorer found, as a link carries it (schedule.ts's formatChoices): the
     * run is an explored one, its workers let past their scheduling points in this order. The
     * server reads it with parseChoices and refuses it in words when it is not one.
     */
    schedule: z.string().max(MAX_SCHEDULE_TEXT).optional(),
  }),
  z.strictObject({ type: z.literal('cancel-run'), runId: id }),
  /** Leaves the line: the queued start `requestId` of this page is dropped (answered queue-left). */
  z.strictObject({ type: z.literal('cancel-queued'), requestId: id }),
  /**
   * A page back after a reconnect takes its place in line again: `queueKey` is the one its
   * run-queued gave. Answered run-queued with its position, or run-rejected when the place lapsed.
   */
  z.strictObject({ type: z.literal('rejoin-queue'), requestId: id, queueKey: QueueKey }),
  /**
   * Follows a run's event stream (a share link, or a page back after a reconnect): every event
   * after `afterSeq`, then live. With the run's `controlKey` (from run-accepted) the page may
   * stall, kill and cancel it again; without it, it only watches.
   */
  z.strictObject({
    type: z.literal('subscribe'),
    runId: id,
    afterSeq: z.number().int().min(-1).default(-1),
    controlKey: z
      .string()
      .regex(/^[a-f0-9]{1,64}$/)
      .optional(),
  }),
  /** A live fault on a real worker process of a run this page started, or (isolate, rejoin, slow, restore) on one of its lab nodes. */
  z
    .strictObject({
      type: z.literal('fault'),
      runId: id,
      /** The worker it strikes; for isolate, rejoin, slow and restore, the lab node ("node-3"). */
      workerId: z.string().min(1).max(40),
      action: LiveFaultAction,
      /** For slow: ms added each way. */
      latencyMs: LatencyMs.optional(),
      /** For slow: percent of the traffic lost (absent: none). */
      lossPercent: LossPercent.optional(),
    })
    .refine((m) => (m.action === 'slow') === (m.latencyMs !== undefined), {
      path: ['latencyMs'],
      message: 'a slow names its latencyMs, and only a slow names one',
    })
    .refine((m) => m.action === 'slow' || m.lossPercent === undefined, {
      path: ['lossPercent'],
      message: 'only a slow names a lossPercent',
    }),
]);
/** A message as a page sends it: fields with defaults may be left out. */
export type ClientMessage = z.input<typeof ClientMessage>;
/** A message as the server acts on it, defaults filled in. */
export type ValidClientMessage = z.output<typeof ClientMessage>;

/** Most events in one message (a page resuming a long run gets several). */
export const MAX_EVENTS_PER_MESSAGE = 500;

/**
 * The RunEvent schema, typed as RunEvent: the schema's declared type is the union of the
 * bare bodies (the stamp is added by `extend`, which that union cannot show).
 */
export const runEventSchema = RunEvent as unknown as z.ZodType<RunEvent>;

const runId = z.string().min(1);

/** Most workers a run-accepted names (a scenario's runs have at most 20). */
const MAX_WORKERS_NAMED = 100;

export const ServerMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), catalog: z.array(ScenarioManifest) }),
  /**
   * `controlKey` lets the page that started the run take control of it again after a
   * reconnect. `workers`: the run's workers, as its run-started will name them: the page lays
   * out their lanes while the workers start, so the first events only add to them.
   */
  z.strictObject({
    type: z.literal('run-accepted'),
    requestId: z.string(),
    runId,
    controlKey: z.string().min(1),
    workers: z.array(z.string()).max(MAX_WORKERS_NAMED),
  }),
  /** `retryAfterMs` is set when the server is busy (this page's or address's share taken, or the line full): the same request may succeed later. */
  z.strictObject({
    type: z.literal('run-rejected'),
    requestId: z.string(),
    error: z.string(),
    retryAfterMs: z.number().int().nonnegative().optional(),
  }),
  /**
   * Every run slot is taken: the start waits in line. `position` counts from 1 (next to
   * start); `estimateMs`, how long until it starts, from the durations of recent runs. Sent
   * again whenever the position changes; run-accepted follows when a slot is free.
   */
  z.strictObject({
    type: z.literal('run-queued'),
    requestId: z.string(),
    position: z.number().int().min(1).max(MAX_QUEUE_POSITION),
    estimateMs: z.number().int().nonnegative(),
    queueKey: QueueKey,
  }),
  /** The start `requestId` left the line, as its page asked (cancel-queued): no run comes of it. */
  z.strictObject({ type: z.literal('queue-left'), requestId: z.string() }),
  /** Answers a subscribe for a run the server no longer knows (it keeps finished runs a while). */
  z.strictObject({ type: z.literal('run-unknown'), runId }),
  /**
   * Answers a subscribe for a run whose server died while it ran (a page back through the
   * proxy on another server): the run is gone with it and decided nothing. `server` is the
   * dead server's name (RACELAB_SERVER_NAME), when it had one.
   */
  z.strictObject({ type: z.literal('run-lost'), runId, server: z.string().min(1).max(64).optional() }),
  z.strictObject({ type: z.literal('run-event'), runId, event: runEventSchema }),
  /** Events of one run that came in together, in order: one message instead of many. */
  z.strictObject({ type: z.literal('run-events'), runId, events: z.array(runEventSchema).min(1).max(MAX_EVENTS_PER_MESSAGE) }),
  z.strictObject({ type: z.literal('error'), error: z.string() }),
]);
/** A message from the server to a page. */
export type ServerMessage = z.infer<typeof ServerMessage>;
export type ServerMessageType = ServerMessage['type'];

export type ParsedServerMessage = { ok: true; message: ServerMessage } | { ok: false; error: string };

/** Parses one text frame from the server; the error names the field that was wrong and why. */
export function parseServerMessage(text: string): ParsedServerMessage {
  const parsed = parseJsonBy(ServerMessage, text, {
    notJson: () => 'message is not valid JSON',
    invalid: (json) => {
      const named = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
      return `invalid server message${typeof named === 'string' ? ` '${named.slice(0, 40)}'` : ''}`;
    },
  });
  return parsed.ok ? { ok: true, message: parsed.value } : parsed;
}

/** Parses a server message where a mismatch is a bug to stop at (tools, tests): throws saying what is wrong. */
export function readServerMessage(text: string): ServerMessage {
  const parsed = parseServerMessage(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.message;
}

/** What a page says of a run lost with its server: one sentence, the same on the page and in the tools. */
export function runLostWords(server: string | undefined): string {
  const which = server ? `${server} stopped` : 'it stopped';
  return `Your run was lost with its server (${which}). Nothing was decided.`;
}

/** The run events a server message carries: one, several (in order) or none. */
export function eventsOf(message: ServerMessage): RunEvent[] {
  return message.type === 'run-event' ? [message.event] : message.type === 'run-events' ? message.events : [];
}

export type ParsedClientMessage = { ok: true; message: ValidClientMessage } | { ok: false; error: string };

/** Keys no message may carry: they name an object's prototype, never a parameter or a field. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** "key '__proto__' is not allowed": the words for a forbidden key, from the page or the CLI. */
export function forbiddenKey(key: string): string {
  return `key '${key}' is not allowed: it names an object's prototype, not a parameter`;
}

class ForbiddenKey extends Error {}

/** Parses one text frame from a page; the error names what was wrong with it. */
export function parseClientMessage(text: string): ParsedClientMessage {
  const parsed = parseJsonBy(
    ClientMessage,
    text,
    {
      notJson: (error) => (error instanceof ForbiddenKey ? `invalid message: ${error.message}` : 'message is not valid JSON'),
      invalid: () => 'invalid message',
    },
    // Refused, not dropped: a schema would quietly leave '__proto__' out of the parameters.
    (key, value) => {
      if (FORBIDDEN_KEYS.includes(key)) throw new ForbiddenKey(forbiddenKey(key));
      return value;
    },
  );
  return parsed.ok ? { ok: true, message: parsed.value } : parsed;
}
