// The server's agent port (opt-in: --worker-agents <port>): worker agents on other hosts
// (worker/agent.ts, in containers, say) connect here and offer worker slots; the pool
// starts a run's workers on them and drives each one as a RemoteWorker.
//
// An agent is let in only when
// - its hello names this protocol, the shared token (compared in constant time), a name and
//   a number of slots within bounds;
// - its monotonic clock is this server's: three times, the server reads its own clock, asks
//   the agent for its reading and reads its own again; the agent's must lie between the two.
//   Workers stamp the timeline from process.hrtime against the run's start as the server
//   read it, which is right only on the server's kernel clock: containers on one Docker host
//   share it, another machine never does (it booted at another time), and an agent whose
//   clock is not the server's is refused, in words, rather than drawing a wrong timeline.
//   The same probe, every few seconds, is each side's sign of life.
// Anything else — a line too long, not JSON, a message out of place, a silence — drops the
// agent: each of its workers is lost with a reason that names it and the agent, so their
// runs fail in words, and the server goes on serving with the agents it has.
import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { monotonicNs } from '../time/clock.js';
import {
  AGENT_NAME,
  AGENT_PROTOCOL,
  CLOCK_TOLERANCE_MS,
  encodeLine,
  HEARTBEAT_MS,
  LineReader,
  MAX_HANDSHAKE_LINE_BYTES,
  MAX_LINE_BYTES,
  MAX_SLOTS,
  parseAgentMessage,
  SILENCE_MS,
  type AgentToServer,
  type ServerToAgent,
} from '../worker/agentProtocol.js';
import { RemoteWorker, type AgentLink } from './remoteWorker.js';

export interface AgentListenerOptions {
  /** 0: a free port (tests). */
  port: number;
  /** Where to listen; 127.0.0.1 unless told (0.0.0.0 inside a container's network). */
  host?: string;
  /** The secret every agent must say. */
  token: string;
  /** The stores as the server reaches them: an agent uses them unless its own env names others. */
  stores: { redisUrl: string; databaseUrl: string };
  /** Hides secrets in what an agent's workers write to stderr. */
  redact?: (text: string) => string;
  /** Where the listener's lines go; console.error with racelab's prefix by default. */
  log?: (line: string) => void;
}

/** Why a run cannot have its workers from the agents right now (none has a free slot, one went), whole, in words. */
export class AgentsUnavailable extends Error {}

/** Agents connected (or saying hello) at most. */
const MAX_CONNECTIONS = 64;
/** How long an agent has for its hello and clock readings, in ms. */
const HANDSHAKE_MS = 10_000;
/** Clock readings taken before an agent is let in. */
const PROBES = 3;
/** How long an agent has to report a worker's exit after the server asked for its SIGKILL, in ms. */
const KILL_REPORT_MS = 10_000;
/** The shortest token the server accepts: a word anyone could guess keeps nobody out. */
export const MIN_TOKEN_LENGTH = 16;

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
const seconds = (ns: bigint): string => `${(Number(ns) / 1e9).toFixed(3)} s`;

/**
 * Whether an agent's monotonic reading lies between the server's readings just before it
 * asked and just after the answer came (give or take CLOCK_TOLERANCE_MS): "" when it does,
 * the reason in words when it does not.
 */
export function clockMismatch(beforeNs: bigint, agentNs: bigint, afterNs: bigint): string {
  const tolerance = BigInt(CLOCK_TOLERANCE_MS * 1e6);
  if (agentNs >= beforeNs - tolerance && agentNs <= afterNs + tolerance) return '';
  const off = agentNs < beforeNs ? beforeNs - agentNs : agentNs - afterNs;
  return (
    `its monotonic clock is not this server's: it read ${seconds(agentNs)} while this server read between ` +
    `${seconds(beforeNs)} and ${seconds(afterNs)} (${seconds(off)} ${agentNs < beforeNs ? 'behind' : 'ahead'}); ` +
    `its workers would stamp the timeline wrong. Agents must run on this server's machine (containers on one Docker host share its clock)`
  );
}

type State = 'hello' | 'clock' | 'in' | 'gone';

class AgentConnection implements AgentLink {
  name = '';
  slots = 0;
  readonly workers = new Map<number, RemoteWorker>();
  private state: State = 'hello';
  private nextRef = 1;
  private nextProbe = 1;
  private probe: { id: number; sentNs: bigint } | undefined;
  private probesPassed = 0;
  private lastHeard = Date.now();
  private readonly reader = new LineReader(MAX_HANDSHAKE_LINE_BYTES);
  private readonly killTimers = new Map<number, NodeJS.Timeout>();
  private readonly timer: NodeJS.Timeout;
  private readonly handshakeTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: net.Socket,
    private readonly listener: AgentListener,
  ) {
    socket.setNoDelay(true);
    let reason = 'the connection closed';
    socket.on('data', (chunk: Buffer) => this.data(chunk));
    socket.on('error', (error) => (reason = error.message));
    socket.on('close', () => this.drop(reason));
    this.handshakeTimer = setTimeout(() => this.refuse(`it did not finish its hello within ${HANDSHAKE_MS / 1000} s`, false), HANDSHAKE_MS);
    // Each side's sign of life, and the clock checked again: every few seconds.
    this.timer = setInterval(() => {
      if (Date.now() - this.lastHeard > SILENCE_MS) this.drop(`it said nothing for ${SILENCE_MS / 1000} s`);
      else if (this.state === 'in') this.sendProbe();
    }, HEARTBEAT_MS);
  }

  /** Where it connected from, for the log. */
  get from(): string {
    return `${this.socket.remoteAddress ?? '?'}:${this.socket.remotePort ?? '?'}`;
  }

  /** Who it is, for the log: its name once it said one. */
  get label(): string {
    return this.name ? `worker agent ${this.name}` : `a worker agent`;
  }

  get open(): boolean {
    return this.state === 'in' && !this.socket.destroyed;
  }

  get isIn(): boolean {
    return this.state === 'in';
  }

  get freeSlots(): number {
    return this.state === 'in' ? this.slots - this.workers.size : 0;
  }

  send(message: ServerToAgent, callback?: (error: Error | null) => void): void {
    if (this.socket.destroyed) {
      if (callback) queueMicrotask(() => callback(new Error(`${this.label} is gone`)));
      return;
    }
    this.socket.write(encodeLine(message), (error) => callback?.(error ?? null));
  }

  /** Asks the agent to fork one worker. */
  startWorker(): RemoteWorker {
    const worker = new RemoteWorker(this.nextRef++, this);
    this.workers.set(worker.ref, worker);
    worker.once('exit', () => {
      this.workers.delete(worker.ref);
      clearTimeout(this.killTimers.get(worker.ref));
      this.killTimers.delete(worker.ref);
    });
    this.send({ kind: 'start', ref: worker.ref });
    return worker;
  }

  killRequested(ref: number): void {
    if (this.killTimers.has(ref)) return;
    const timer = setTimeout(
      () =>
        this.drop(
          `it did not report the exit of its worker (pid ${this.workers.get(ref)?.pid ?? '?'}) within ${KILL_REPORT_MS / 1000} s of its SIGKILL`,
        ),
      KILL_REPORT_MS,
    );
    timer.unref();
    this.killTimers.set(ref, timer);
  }

  /**
   * Ends the connection: every worker of the agent is lost, with this reason. `lastWords`
   * go to the agent before the socket closes (it is destroyed a moment later whatever the
   * agent does).
   */
  drop(reason: string, lastWords?: ServerToAgent): void {
    if (this.state === 'gone') return;
    const wasIn = this.state === 'in';
    this.state = 'gone';
    clearInterval(this.timer);
    clearTimeout(this.handshakeTimer);
    for (const timer of this.killTimers.values()) clearTimeout(timer);
    if (lastWords && !this.socket.destroyed) {
      this.socket.end(encodeLine(lastWords));
      setTimeout(() => this.socket.destroy(), 2000).unref();
    } else {
      this.socket.destroy();
    }
    if (wasIn) this.listener.log(`${this.label} (${this.from}) dropped: ${reason}`);
    for (const worker of [...this.workers.values()]) worker.lostWith(`was lost with its agent ${this.name}: ${reason}`);
    this.workers.clear();
    this.listener.gone(this, wasIn);
  }

  /** Tells the agent why it is not let in (or no longer), then closes. */
  private refuse(reason: string, final: boolean): void {
    if (this.state === 'gone') return;
    this.listener.log(`refused ${this.label} from ${this.from}: ${reason}`);
    this.drop(reason, { kind: 'refused', reason, final });
  }

  private data(chunk: Buffer): void {
    this.lastHeard = Date.now();
    let lines: string[];
    try {
      lines = this.reader.push(chunk);
    } catch (error) {
      return this.fault(`it sent ${(error as Error).message}`);
    }
    for (const line of lines) {
      if (this.state === 'gone') return;
      const parsed = parseAgentMessage(line);
      if (!parsed.ok) return this.fault(`it sent ${parsed.error}`);
      this.handle(parsed.message);
    }
  }

  /** Bad input: refused in words during the hello, dropped once in. */
  private fault(reason: string): void {
    if (this.state === 'in') this.drop(reason);
    else this.refuse(reason, true);
  }

  private handle(message: AgentToServer): void {
    if (this.state === 'hello') {
      if (message.kind !== 'hello') return this.fault(`it sent '${message.kind}' before its hello`);
      return this.hello(message);
    }
    if (message.kind === 'clock') return this.clock(message);
    if (this.state !== 'in') return this.fault(`it sent '${message.kind}' before its clock was checked`);
    if (message.kind === 'hello') return this.fault('it said hello twice');
    const worker = this.workers.get(message.ref);
    if (!worker) return this.fault(`it sent '${message.kind}' for a worker it does not run (${message.ref})`);
    switch (message.kind) {
      case 'started':
        worker.started(message.pid);
        break;
      case 'from-worker':
        worker.received(message.message);
        break;
      case 'stderr':
        this.listener.log(`${this.label}, worker pid ${worker.pid ?? '?'}: ${this.listener.redact(message.line)}`);
        break;
      case 'exit':
        if (message.error) this.listener.log(`${this.label} could not start a worker: ${this.listener.redact(message.error)}`);
        worker.exited(message.code, message.signal as NodeJS.Signals | null, message.error && `agent ${this.name}: ${message.error}`);
        break;
    }
  }

  private hello(message: Extract<AgentToServer, { kind: 'hello' }>): void {
    if (AGENT_NAME.test(message.name)) this.name = message.name;
    if (message.protocol !== AGENT_PROTOCOL) {
      return this.refuse(`it speaks agent protocol ${message.protocol}; this server speaks ${AGENT_PROTOCOL}`, true);
    }
    if (!timingSafeEqual(digest(message.token), digest(this.listener.token))) return this.refuse('wrong token', true);
    if (!this.name) return this.refuse(`its name must be letters, digits, '.', '_' or '-' (at most 63)`, true);
    if (message.slots < 1 || message.slots > MAX_SLOTS)
      return this.refuse(`it offers ${message.slots} slots; from 1 to ${MAX_SLOTS}`, true);
    if (this.listener.hasAgent(this.name)) {
      return this.refuse(`an agent named ${this.name} is already in (give each agent a --name of its own)`, false);
    }
    this.slots = message.slots;
    this.state = 'clock';
    this.sendProbe();
  }

  private sendProbe(): void {
    const id = this.nextProbe++;
    this.probe = { id, sentNs: monotonicNs() };
    this.send({ kind: 'probe', id });
  }

  private clock(message: Extract<AgentToServer, { kind: 'clock' }>): void {
    const receivedNs = monotonicNs();
    // An answer to an earlier probe than the last one asked: the newer one will come.
    if (!this.probe || message.id !== this.probe.id) return;
    const mismatch = clockMismatch(this.probe.sentNs, BigInt(message.monotonicNs), receivedNs);
    this.probe = undefined;
    if (mismatch) return this.state === 'in' ? this.drop(mismatch) : this.refuse(mismatch, true);
    if (this.state !== 'clock') return;
    if (++this.probesPassed < PROBES) return this.sendProbe();
    this.admit();
  }

  private admit(): void {
    clearTimeout(this.handshakeTimer);
    this.state = 'in';
    this.reader.maxBytes = MAX_LINE_BYTES;
    const { redisUrl, databaseUrl } = this.listener.stores;
    this.send({ kind: 'welcome', agent: this.name, redisUrl, databaseUrl });
    this.listener.log(`worker agent ${this.name} is in, from ${this.from}, with ${this.slots} worker slots (its clock is this server's)`);
    this.listener.admitted();
  }
}

export class AgentListener {
  private readonly connections = new Set<AgentConnection>();
  private readonly listeners = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly server: net.Server,
    private readonly options: AgentListenerOptions,
  ) {}

  /** Listens on the agent port; throws when the token is too short or the port is taken. */
  static async open(options: AgentListenerOptions): Promise<AgentListener> {
    if (options.token.length < MIN_TOKEN_LENGTH) {
      throw new Error(`the worker agents' token must be at least ${MIN_TOKEN_LENGTH} characters (RACELAB_AGENT_TOKEN)`);
    }
    const server = net.createServer();
    const listener = new AgentListener(server, options);
    server.on('connection', (socket) => listener.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => listener.log(`the agent port: ${error.message}`));
    return listener;
  }

  /** The port agents connect to. */
  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** The address it listens on. */
  get host(): string {
    return this.options.host ?? '127.0.0.1';
  }

  get token(): string {
    return this.options.token;
  }

  get stores(): { redisUrl: string; databaseUrl: string } {
    return this.options.stores;
  }

  /** The agents let in right now. */
  get agents(): { name: string; slots: number; workers: number }[] {
    return [...this.connections].filter((c) => c.isIn).map((c) => ({ name: c.name, slots: c.slots, workers: c.workers.size }));
  }

  /** Agents let in right now. */
  get count(): number {
    return this.agents.length;
  }

  /** Worker slots free on the agents let in. */
  get freeSlots(): number {
    let free = 0;
    for (const c of this.connections) free += c.freeSlots;
    return free;
  }

  /** Calls `listener` whenever an agent is let in or goes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts one worker on the agent with the most free slots; throws AgentsUnavailable when none has one. */
  start(): RemoteWorker {
    let best: AgentConnection | undefined;
    for (const c of this.connections) if (c.freeSlots > 0 && (!best || c.freeSlots > best.freeSlots)) best = c;
    if (!best) {
      throw new AgentsUnavailable(
        this.count === 0
          ? `no worker agent is connected to the agent port (${this.port})`
          : `the worker agents have no free worker slot (${this.agents.map((a) => `${a.name}: ${a.workers} of ${a.slots}`).join(', ')})`,
      );
    }
    return best.startWorker();
  }

  /** Drops every agent (their workers are lost) and stops listening. */
  async close(reason = 'the server is stopping'): Promise<void> {
    this.closed = true;
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const c of [...this.connections]) c.drop(reason);
    await closing;
  }

  // For the connections:

  log(line: string): void {
    if (this.options.log) this.options.log(line);
    else console.error(`racelab: ${line}`);
  }

  redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  hasAgent(name: string): boolean {
    return [...this.connections].some((c) => c.isIn && c.name === name);
  }

  admitted(): void {
    this.changed();
  }

  gone(connection: AgentConnection, wasIn: boolean): void {
    this.connections.delete(connection);
    if (wasIn) this.changed();
  }

  private changed(): void {
    if (this.closed) return;
    for (const listener of this.listeners) listener();
  }

  private accept(socket: net.Socket): void {
    if (this.closed) return void socket.destroy();
    const connection = new AgentConnection(socket, this);
    if (this.connections.size >= MAX_CONNECTIONS) {
      const reason = `the server has ${MAX_CONNECTIONS} agents already`;
      this.log(`refused a worker agent from ${connection.from}: ${reason}`);
      connection.drop(reason, { kind: 'refused', reason, final: false });
      return;
    }
    this.connections.add(connection);
  }
}
