// What a worker agent and the server say to each other over TCP: one JSON object a line.
// The agent (worker/agent.ts) runs on a host of its own (a container, say), connects to the
// server's agent port, proves it knows the shared token and that its monotonic clock is the
// server's, then forks workers there on the server's word and relays their IPC messages
// both ways, as they are. Every line is checked on arrival, its length first: a line that
// is too long, not JSON or not one of these messages ends the connection, never the reader.
import type { FromWorker, ToWorker } from './ipc.js';

/** Bumped when a message changes meaning: an agent of another version is refused, in words. */
export const AGENT_PROTOCOL = 1;
/** The longest line either side accepts once the agent is in, in bytes (a plan or an event is a few KiB). */
export const MAX_LINE_BYTES = 1 << 20;
/** The longest line before the agent is in: its hello and its clock readings are short. */
export const MAX_HANDSHAKE_LINE_BYTES = 4096;
/** Worker slots one agent may offer. */
export const MAX_SLOTS = 64;
/** How often the server reads the agent's clock again, which is also each side's sign of life, in ms. */
export const HEARTBEAT_MS = 5000;
/** Silence after which either side takes the other for gone, in ms. */
export const SILENCE_MS = 20_000;
/**
 * How far an agent's monotonic reading may lie outside the server's two readings around it,
 * in ms. On one kernel it is always between them (the clock is the same and the reading is
 * taken between the question and the answer); the margin only absorbs rounding.
 */
export const CLOCK_TOLERANCE_MS = 1;
/** The signals the server may ask an agent to send one of its workers. */
export const RELAYED_SIGNALS = ['SIGSTOP', 'SIGCONT', 'SIGKILL', 'SIGTERM'] as const;
export type RelayedSignal = (typeof RELAYED_SIGNALS)[number];

/** An agent's name: what the log, a failed run and the timeline call it. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export type AgentToServer =
  | { kind: 'hello'; protocol: number; token: string; name: string; slots: number }
  /** Its monotonic clock (process.hrtime) when the probe with this id reached it, ns as a decimal string. */
  | { kind: 'clock'; id: number; monotonicNs: string }
  /** A worker forked for the server's `start` with this ref, and its pid on the agent's host. */
  | { kind: 'started'; ref: number; pid: number }
  | { kind: 'from-worker'; ref: number; message: FromWorker }
  /** A line the worker wrote to stderr (why it could not start, say). */
  | { kind: 'stderr'; ref: number; line: string }
  /** The worker exited (or could not be forked: `error`). */
  | { kind: 'exit'; ref: number; code: number | null; signal: string | null; error?: string };

export type ServerToAgent =
  /** Asks for the agent's monotonic clock now; answered with `clock`. */
  | { kind: 'probe'; id: number }
  /** The agent is in. The store URLs are the server's: the agent's own REDIS_URL / DATABASE_URL win. */
  | { kind: 'welcome'; agent: string; redisUrl: string; databaseUrl: string }
  /** The agent is not let in; `final`: trying again cannot help (wrong token, another clock). */
  | { kind: 'refused'; reason: string; final: boolean }
  /** Fork a worker; the server's number for it on this connection is `ref`. */
  | { kind: 'start'; ref: number }
  | { kind: 'to-worker'; ref: number; message: ToWorker }
  | { kind: 'signal'; ref: number; signal: RelayedSignal };

/** One message as a line. */
export function encodeLine(message: AgentToServer | ServerToAgent): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Splits a byte stream into lines, refusing any line longer than the limit before it has
 * been buffered whole (the limit can be lowered or raised as the connection moves on).
 */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(public maxBytes: number) {}

  /** The complete lines in this chunk (with what came before); throws when a line passes the limit. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, at);
      if (this.pendingBytes + part.length > this.maxBytes) throw new Error(this.tooLong());
      lines.push(Buffer.concat([...this.pending, part]).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      start = at + 1;
    }
    const rest = chunk.subarray(start);
    if (this.pendingBytes + rest.length > this.maxBytes) throw new Error(this.tooLong());
    if (rest.length > 0) {
      this.pending.push(Buffer.from(rest));
      this.pendingBytes += rest.length;
    }
    return lines;
  }

  private tooLong(): string {
    return `a line longer than ${this.maxBytes} bytes`;
  }
}

type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const hasOnly = (o: Json, keys: string[]): boolean => Object.keys(o).every((k) => keys.includes(k));

function readJson(line: string): Parsed<Json> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, error: 'a line that is not JSON' };
  }
  if (!isObject(value) || typeof value.kind !== 'string') return { ok: false, error: 'a line that is not a message (no kind)' };
  return { ok: true, message: value };
}

/** A worker's message, as the agent relays it: the run checks each event against the event model itself. */
function isFromWorker(m: unknown): m is FromWorker {
  if (!isObject(m)) return false;
  switch (m.kind) {
    case 'ready':
    case 'die':
      return hasOnly(m, ['kind']);
    case 'event':
      return hasOnly(m, ['kind', 'event']) && isObject(m.event);
    case 'signal':
      return hasOnly(m, ['kind', 'name']) && isString(m.name, 300);
    case 'wait':
      return (
        hasOnly(m, ['kind', 'id', 'names']) &&
        isInt(m.id) &&
        Array.isArray(m.names) &&
        m.names.length <= 100 &&
        m.names.every((n) => isString(n, 300))
      );
    case 'barrier':
    case 'checkpoint':
      return hasOnly(m, ['kind', 'id', 'name']) && isInt(m.id) && isString(m.name, 300);
    case 'stall':
      return hasOnly(m, ['kind', 'id', 'ms']) && isInt(m.id) && typeof m.ms === 'number' && m.ms >= 0 && Number.isFinite(m.ms);
    case 'finished':
      return hasOnly(m, ['kind', 'error']) && (m.error === undefined || isString(m.error, 10_000));
    default:
      return false;
  }
}

/** What the server makes of an agent's line. */
export function parseAgentMessage(line: string): Parsed<AgentToServer> {
  const json = readJson(line);
  if (!json.ok) return json;
  const m = json.message;
  const bad = (what: string): Parsed<AgentToServer> => ({ ok: false, error: `a '${what}' message that is not well formed` });
  switch (m.kind) {
    case 'hello':
      return hasOnly(m, ['kind', 'protocol', 'token', 'name', 'slots']) &&
        isInt(m.protocol) &&
        isString(m.token, 1000) &&
        isString(m.name, 63) &&
        isInt(m.slots)
        ? { ok: true, message: m as AgentToServer }
        : bad('hello');
    case 'clock':
      return hasOnly(m, ['kind', 'id', 'monotonicNs']) && isInt(m.id) && isString(m.monotonicNs, 30) && /^\d+$/.test(m.monotonicNs)
        ? { ok: true, message: m as AgentToServer }
        : bad('clock');
    case 'started':
      return hasOnly(m, ['kind', 'ref', 'pid']) && isInt(m.ref) && isInt(m.pid, 1)
        ? { ok: true, message: m as AgentToServer }
        : bad('started');
    case 'from-worker':
      return hasOnly(m, ['kind', 'ref', 'message']) && isInt(m.ref) && isFromWorker(m.message)
        ? { ok: true, message: m as AgentToServer }
        : bad('from-worker');
    case 'stderr':
      return hasOnly(m, ['kind', 'ref', 'line']) && isInt(m.ref) && isString(m.line, 10_000)
        ? { ok: true, message: m as AgentToServer }
        : bad('stderr');
    case 'exit':
      return hasOnly(m, ['kind', 'ref', 'code', 'signal', 'error']) &&
        isInt(m.ref) &&
        (m.code === null || isInt(m.code, -1_000_000, 1_000_000)) &&
        (m.signal === null || (isString(m.signal, 20) && /^SIG[A-Z0-9]+$/.test(m.signal))) &&
        (m.error === undefined || isString(m.error, 2000))
        ? { ok: true, message: m as AgentToServer }
        : bad('exit');
    default:
      return { ok: false, error: `a message of a kind racelab does not know ('${String(m.kind).slice(0, 40)}')` };
  }
}

/** What an agent makes of the server's line. */
export function parseServerMessage(line: string): Parsed<ServerToAgent> {
  const json = readJson(line);
  if (!json.ok) return json;
  const m = json.message;
  const ok = { ok: true, message: m as ServerToAgent } as const;
  const bad = { ok: false, error: `a '${String(m.kind).slice(0, 40)}' message that is not well formed` } as const;
  switch (m.kind) {
    case 'probe':
      return isInt(m.id) ? ok : bad;
    case 'welcome':
      return isString(m.agent, 200) && isString(m.redisUrl, 2000) && isString(m.databaseUrl, 2000) ? ok : bad;
    case 'refused':
      return isString(m.reason, 2000) && typeof m.final === 'boolean' ? ok : bad;
    case 'start':
      return isInt(m.ref) ? ok : bad;
    case 'to-worker':
      return isInt(m.ref) && isObject(m.message) && (m.message.kind === 'plan' || m.message.kind === 'released') ? ok : bad;
    case 'signal':
      return isInt(m.ref) && (RELAYED_SIGNALS as readonly unknown[]).includes(m.signal) ? ok : bad;
    default:
      return { ok: false, error: `a message of a kind this agent does not know ('${String(m.kind).slice(0, 40)}')` };
  }
}

/** "host:port" (or "[v6]:port") as the agent's --server takes it. */
export function parseServerAddress(text: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: match[1] ?? match[2]!, port };
}
