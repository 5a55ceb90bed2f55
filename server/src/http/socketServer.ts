// The page's WebSocket: validates every message against the shared protocol, starts
// runs and streams their events. A bad message gets an error back; the socket, the
// server and everyone else's runs carry on.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_CLIENT_FRAME_BYTES, parseClientMessage, type ServerMessage } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { Run } from '../runs/run.js';

/** Runs one page may have going at once. */
export const MAX_RUNS_PER_CONNECTION = 2;
/** Runs the whole server may have going at once. */
export const MAX_RUNS_PER_SERVER = 12;
/** A client further behind than this is dropped rather than buffered without bound, in bytes. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;

export class SocketServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  readonly runs = new Set<Run>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly playground: Playground) {
    this.wss.on('connection', (socket) => this.accept(socket));
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
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes an HTTP upgrade on /ws from a page of this server's own origin. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const origin = request.headers.origin;
    const host = request.headers.host;
    if (origin !== undefined && (!host || new URL(origin).host !== host)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  /** Cancels every run and closes every socket. */
  async close(reason: string): Promise<void> {
    clearInterval(this.heartbeat);
    for (const run of this.runs) run.cancel(reason);
    for (const socket of this.wss.clients) socket.close(1001, 'server stopping');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    const mine = new Set<Run>();
    const send = (message: ServerMessage): void => {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.terminate();
        return;
      }
      socket.send(JSON.stringify(message));
    };
    send({ type: 'hello', catalog: this.playground.catalog.manifests });

    socket.on('message', (data, isBinary) => {
      if (isBinary) return send({ type: 'error', error: 'binary frames are not accepted; send JSON text' });
      const parsed = parseClientMessage(data.toString());
      if (!parsed.ok) return send({ type: 'error', error: parsed.error });
      const message = parsed.message;
      if (message.type === 'cancel-run') {
        const run = [...mine].find((r) => r.id === message.runId);
        if (!run) return send({ type: 'error', error: `no run '${message.runId}' of yours is going` });
        return run.cancel('cancelled from the page');
      }
      const { requestId } = message;
      if (mine.size >= MAX_RUNS_PER_CONNECTION || this.runs.size >= MAX_RUNS_PER_SERVER) {
        return send({ type: 'run-rejected', requestId, error: 'busy: too many runs are going; try again in a moment' });
      }
      const prepared = this.playground.prepare(message);
      if (!prepared.ok) return send({ type: 'run-rejected', requestId, error: prepared.error });
      const { run } = prepared;
      mine.add(run);
      this.runs.add(run);
      send({ type: 'run-accepted', requestId, runId: run.id });
      run.onEvent((event) => send({ type: 'run-event', runId: run.id, event }));
      void run.start().finally(() => {
        mine.delete(run);
        this.runs.delete(run);
      });
    });

    // A page that goes away takes its runs with it: nobody is left to watch them.
    socket.on('close', () => {
      for (const run of mine) run.cancel('the page closed its connection');
    });
    socket.on('error', () => socket.terminate());
  }
}
