// The server's agent port (opt-in: --worker-agents <port>): worker agents on other hosts
// (worker/agent.ts, in containers, say) connect here and offer worker slots; the pool
// starts a run's workers on the agent with the most free slots and drives each one as a
// RemoteWorker. Each agent is an AgentConnection (agentConnection.ts: its hello, its clock
// check, its sign of life); one that misbehaves is dropped, and the server goes on serving
// with the agents it has.
import net from 'node:net';
import { AgentConnection, type ConnectionHost } from './agentConnection.js';
import type { RemoteWorker } from './remoteWorker.js';

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
/** The shortest token the server accepts: a word anyone could guess keeps nobody out. */
export const MIN_TOKEN_LENGTH = 16;

export class AgentListener implements ConnectionHost {
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
