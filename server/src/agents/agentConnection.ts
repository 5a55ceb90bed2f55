// One worker agent's connection to the agent port. An agent is let in only when
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
// runs fail in words.
import { createHash, timingSafeEqual } from 'node:crypto';
import type net from 'node:net';
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

/** What a connection needs of the agent port it came in on. */
export interface ConnectionHost {
  /** The secret every agent must say. */
  readonly token: string;
  /** The stores as the server reaches them, for the agent's welcome. */
  readonly stores: { redisUrl: string; databaseUrl: string };
  log(line: string): void;
  redact(text: string): string;
  /** Is an agent of this name in already? */
  hasAgent(name: string): boolean;
  /** This connection's agent is in. */
  admitted(): void;
  /** This connection is over (`wasIn`: its agent had been let in). */
  gone(connection: AgentConnection, wasIn: boolean): void;
}

/** How long an agent has for its hello and clock readings, in ms. */
const HANDSHAKE_MS = 10_000;
/** Clock readings taken before an agent is let in. */
const PROBES = 3;
/** How long an agent has to report a worker's exit after the server asked for its SIGKILL, in ms. */
const KILL_REPORT_MS = 10_000;
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

export class AgentConnection implements AgentLink {
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
    private readonly listener: ConnectionHost,
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
