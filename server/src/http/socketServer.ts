// The page's WebSocket: validates every message against the shared protocol, starts
// runs and streams their events. A bad message gets an error back; the socket, the
// server and everyone else's runs carry on.
//
// What a page may send is bounded at every step, in this order: the rate (a token bucket
// per connection), the frame (64 KiB answered with an error; past 1 MiB ws closes the
// socket with 1009), binary or invalid UTF-8 (an error), JSON and the shared schema (an
// error naming the field), then the catalog (unknown scenario, variant, parameter or
// bound: run-rejected) and the caps on runs and worker processes (run-rejected "busy").
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  MAX_CLIENT_FRAME_BYTES,
  MAX_EVENTS_PER_MESSAGE,
  parseClientMessage,
  type ServerMessage,
  type ValidClientMessage,
} from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { Run } from '../runs/run.js';
import { refuseUpgrade } from './hosts.js';
import { EventBatcher } from './eventBatcher.js';
import { RunDirectory } from './runDirectory.js';

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
  maxBufferedBytes: 8 * 1024 * 1024,
  heartbeatMs: 30_000,
  closeGraceMs: 5000,
};

/** Runs one page may have going at once. */
export const MAX_RUNS_PER_CONNECTION = DEFAULT_LIMITS.maxRunsPerConnection;
/** Runs the whole server may have going at once. */
export const MAX_RUNS_PER_SERVER = DEFAULT_LIMITS.maxRunsPerServer;
/** What a busy server suggests a page waits before it asks again, in ms. */
export const BUSY_RETRY_AFTER_MS = 1000;
export const TOO_MANY_MESSAGES = 'too many messages: slow down';

/** A token bucket: `take()` is true while the caller stays within the rate and the burst. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The sending side of a socket, as far as the bound on buffering needs it. */
export interface BoundedSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  terminate(): void;
}

/**
 * Sends unless the peer is too far behind: a client that does not read is cut off once
 * `maxBufferedBytes` wait for it, so no client is ever buffered without bound. Returns
 * whether the message was sent.
 */
export function sendBounded(socket: BoundedSocket, message: ServerMessage, maxBufferedBytes: number): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > maxBufferedBytes) {
    socket.terminate();
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class SocketServer {
  private readonly wss: WebSocketServer;
  readonly directory = new RunDirectory();
  readonly limits: SocketLimits;
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly playground: Playground,
    limits: Partial<SocketLimits> = {},
    /** Host names besides localhost and IP literals that pages may use (RACELAB_ALLOWED_HOSTS). */
    private readonly allowedHosts: readonly string[] = [],
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    // UTF-8 is checked here rather than by ws, so that a bad frame gets an answer instead of a 1007 close.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.limits.maxPayloadBytes, skipUTF8Validation: true });
    this.wss.on('connection', (socket, request: IncomingMessage) => this.accept(socket, request.socket.remoteAddress ?? 'unknown'));
    // The documented ws heartbeat: a peer that misses a pong is gone.
    const alive = new WeakSet<WebSocket>();
    this.wss.on('connection', (socket) => {
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
    });
    this.heartbeat = setInterval(() => {
      for (const socket of this.wss.clients) {
        if (!alive.has(socket)) socket.terminate();
        else {
          alive.delete(socket);
          socket.ping();
        }
      }
    }, this.limits.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Runs started from each network address, as far as they are still going (pruned as read). */
  private readonly byAddress = new Map<string, string[]>();

  private runsOf(address: string): string[] {
    const going = (this.byAddress.get(address) ?? []).filter((id) => this.directory.get(id)?.isSettled === false);
    if (going.length === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, going);
    return going;
  }

  /** Connections open right now. */
  get connections(): number {
    return this.wss.clients.size;
  }

  /** Takes an HTTP upgrade on /ws from a page of this server's own origin. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refusal = this.closing ? 'the server is stopping' : refuseUpgrade(request.headers, this.allowedHosts);
    if (refusal) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-type: text/plain\r\n\r\n${refusal}\n`);
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  /**
   * Refuses new runs, cancels every run going, waits for them to end and clean up (so each
   * page gets its run-failed with the reason), then closes every socket.
   */
  async close(reason: string): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    this.directory.cancelAll(reason);
    await this.directory.settled(this.limits.closeGraceMs);
    for (const socket of this.wss.clients) socket.close(1001, 'server stopping');
    // A peer that does not answer the close handshake is cut off.
    const stragglers = setTimeout(() => {
      for (const socket of this.wss.clients) socket.terminate();
    }, 1000);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    clearTimeout(stragglers);
  }

  private accept(socket: WebSocket, address: string): void {
    const limits = this.limits;
    // The runs this page started or resumed, with the unsubscribe of each stream.
    const streams = new Map<string, () => void>();
    /** Runs this page may stall, kill and cancel: the ones it started, or holds the key of. */
    const controlled = new Set<string>();
    const bucket = new TokenBucket(limits.messagesPerSecond, limits.messageBurst);
    // Events go out in batches (see EventBatcher); any other message first sends the
    // events waiting, so that nothing overtakes them.
    const batcher = new EventBatcher((runId, events) => {
      for (let i = 0; i < events.length; i += MAX_EVENTS_PER_MESSAGE) {
        const batch = events.slice(i, i + MAX_EVENTS_PER_MESSAGE);
        const message: ServerMessage =
          batch.length === 1 ? { type: 'run-event', runId, event: batch[0]! } : { type: 'run-events', runId, events: batch };
        sendBounded(socket, message, limits.maxBufferedBytes);
      }
    });
    const send = (message: ServerMessage): void => {
      batcher.flush();
      sendBounded(socket, message, limits.maxBufferedBytes);
    };
    const stream = (run: Run, afterSeq: number): void => {
      if (streams.has(run.id)) return;
      for (const event of run.events) if (event.seq > afterSeq) batcher.push(run.id, event);
      streams.set(
        run.id,
        run.onEvent((event) => batcher.push(run.id, event)),
      );
      this.directory.watch(run.id);
    };
    send({ type: 'hello', catalog: this.playground.catalog.manifests });

    socket.on('message', (data: RawData, isBinary: boolean) => {
      // Checked before anything else, so a flood costs next to nothing.
      if (!bucket.take()) return send({ type: 'error', error: TOO_MANY_MESSAGES });
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (bytes.length > limits.maxFrameBytes) {
        return send({ type: 'error', error: `message too big: ${bytes.length} bytes; the limit is ${limits.maxFrameBytes}` });
      }
      if (isBinary) return send({ type: 'error', error: 'binary frames are not accepted; send JSON text' });
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        return send({ type: 'error', error: 'message is not valid UTF-8 text' });
      }
      const parsed = parseClientMessage(text);
      if (!parsed.ok) return send({ type: 'error', error: parsed.error });
      try {
        this.handle(parsed.message, address, streams, controlled, send, stream);
      } catch (error) {
        // Never expected; if it happens, this message fails and everything else carries on.
        const text = String(error);
        console.error(`racelab: a message could not be handled: ${this.playground.redact?.(text) ?? text}`);
        send({ type: 'error', error: 'the server could not handle that message' });
      }
    });

    // A page that goes away takes its runs with it, unless it comes back in time.
    socket.on('close', () => {
      batcher.close();
      for (const [runId, unsubscribe] of streams) {
        unsubscribe();
        this.directory.unwatch(runId);
      }
      streams.clear();
    });
    socket.on('error', () => socket.terminate());
  }

  private handle(
    message: ValidClientMessage,
    address: string,
    streams: Map<string, () => void>,
    controlled: Set<string>,
    send: (message: ServerMessage) => void,
    stream: (run: Run, afterSeq: number) => void,
  ): void {
    const limits = this.limits;
    switch (message.type) {
      case 'start-run': {
        const { requestId } = message;
        if (this.closing) return send({ type: 'run-rejected', requestId, error: 'the server is stopping' });
        const prepared = this.playground.prepare({
          scenario: message.scenario,
          variant: message.variant,
          params: message.params,
          faults: message.faults,
          speed: message.speed,
        });
        if (!prepared.ok) return send({ type: 'run-rejected', requestId, error: prepared.error });
        const { run } = prepared;
        const busy = (error: string): void => send({ type: 'run-rejected', requestId, error, retryAfterMs: BUSY_RETRY_AFTER_MS });
        const mine = [...streams.keys()].filter((id) => this.directory.get(id)?.isSettled === false).length;
        if (mine >= limits.maxRunsPerConnection) {
          return busy(`busy: this page already has ${mine} runs going, the most one page may have; try again when one ends`);
        }
        const fromAddress = this.runsOf(address);
        if (!limits.isTrustedAddress(address) && fromAddress.length >= limits.maxRunsPerAddress) {
          return busy(
            `busy: the pages of this address already have ${fromAddress.length} runs going, the most one address may have; try again when one ends`,
          );
        }
        if (this.directory.active >= limits.maxRunsPerServer) {
          return busy(`busy: the server is running ${this.directory.active} runs, the most it takes at once; try again in a moment`);
        }
        const workers = this.directory.workers;
        if (workers + run.workerCount > limits.maxWorkersPerServer) {
          return busy(
            `busy: the server has ${workers} worker processes going and this run needs ${run.workerCount} more (at most ${limits.maxWorkersPerServer}); try again in a moment`,
          );
        }
        // The page that starts a run controls it; the key lets it take control again after a reconnect.
        const controlKey = this.directory.add(run);
        controlled.add(run.id);
        this.byAddress.set(address, [...fromAddress, run.id]);
        send({ type: 'run-accepted', requestId, runId: run.id, controlKey, workers: run.workerIds });
        stream(run, -1);
        void run.start();
        return;
      }
      case 'subscribe': {
        const run = this.directory.get(message.runId);
        if (!run) return send({ type: 'run-unknown', runId: message.runId });
        if (this.directory.controls(run.id, message.controlKey)) controlled.add(run.id);
        return stream(run, message.afterSeq);
      }
      case 'cancel-run':
      case 'fault': {
        const run = streams.has(message.runId) ? this.directory.get(message.runId) : undefined;
        if (!run) return send({ type: 'error', error: `no run '${message.runId}' of this page` });
        if (!controlled.has(run.id)) {
          return send({
            type: 'error',
            error: `this page watches run '${run.id}' but did not start it: only the page that started a run may stall, kill or cancel it`,
          });
        }
        if (message.type === 'cancel-run') return run.cancel('cancelled from the page');
        const slowdown =
          message.latencyMs === undefined ? undefined : { latencyMs: message.latencyMs, lossPercent: message.lossPercent ?? 0 };
        const error = run.fault(message.workerId, message.action, slowdown);
        if (error) send({ type: 'error', error });
        return;
      }
    }
  }
}
