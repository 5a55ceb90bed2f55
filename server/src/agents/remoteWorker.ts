// A worker that runs on a worker agent's host, as the server holds it: it quacks like the
// ChildProcess the pool forks (send, kill, pid, connected, exitCode, signalCode, and the
// events 'message' and 'exit'), so a run drives it the same way. Every call becomes a line
// to its agent (agentListener.ts), and what the agent reports comes back as the events.
import { EventEmitter } from 'node:events';
import { RELAYED_SIGNALS, type ServerToAgent } from '../worker/agentProtocol.js';
import type { FromWorker, ToWorker, WorkerProcess } from '../worker/ipc.js';

/** What a remote worker needs of its agent's connection. */
export interface AgentLink {
  /** The agent's name, for the log and the timeline. */
  readonly name: string;
  /** While the agent is connected and let in. */
  readonly open: boolean;
  send(message: ServerToAgent, callback?: (error: Error | null) => void): void;
  /** A SIGKILL was asked for: the agent must report the exit soon, or it is taken for gone. */
  killRequested(ref: number): void;
}

export class RemoteWorker extends EventEmitter implements WorkerProcess {
  /** Its pid on the agent's host, once the agent has forked it. */
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** Why it ended without an exit status: its agent went, or could not fork it. */
  lost: string | undefined;
  /** It ended because its agent went (not because it failed). */
  agentGone = false;
  private ended = false;

  constructor(
    /** The server's number for it on its agent's connection. */
    readonly ref: number,
    private readonly link: AgentLink,
  ) {
    super();
  }

  get host(): string {
    return this.link.name;
  }

  get connected(): boolean {
    return !this.ended && this.link.open;
  }

  send(message: ToWorker, callback?: (error: Error | null) => void): boolean {
    if (!this.connected) {
      if (callback) queueMicrotask(() => callback(new Error(`the worker on agent ${this.host} is gone`)));
      return false;
    }
    this.link.send({ kind: 'to-worker', ref: this.ref, message }, callback);
    return true;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (!this.connected || !(RELAYED_SIGNALS as readonly string[]).includes(signal)) return false;
    this.link.send({ kind: 'signal', ref: this.ref, signal: signal as (typeof RELAYED_SIGNALS)[number] });
    if (signal === 'SIGKILL') this.link.killRequested(this.ref);
    return true;
  }

  /** The agent forked it. */
  started(pid: number): void {
    this.pid = pid;
  }

  /** A message the worker sent, relayed by its agent. */
  received(message: FromWorker): void {
    if (!this.ended) this.emit('message', message);
  }

  /** The agent reports its exit; `error`: it could not be forked at all. */
  exited(code: number | null, signal: NodeJS.Signals | null, error?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.exitCode = code;
    this.signalCode = signal;
    if (error) this.lost = error;
    this.emit('exit', code, signal);
  }

  /** Its agent is gone: the worker is out of reach (and killed there by its agent, or dead with it). */
  lostWith(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.lost = reason;
    this.agentGone = true;
    this.emit('exit', null, null);
  }
}
