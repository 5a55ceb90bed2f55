// The page's WebSocket: validates every message against the shared protocol, starts
// runs and streams their events. A bad message gets an error back; the socket, the
// server and everyone else's runs carry on.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_CLIENT_FRAME_BYTES, parseClientMessage, type ServerMessage } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { Run } from '../runs/run.js';
import { RunDirectory } from './runDirectory.js';

/** Runs one page may have going at once. */
export const MAX_RUNS_PER_CONNECTION = 2;
/** Runs the whole server may have going at once. */
export const MAX_RUNS_PER_SERVER = 12;
/** A client further behind than this is dropped rather than buffered without bound, in bytes. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;

export class SocketServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  readonly directory = new RunDirectory();
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
    this.directory.cancelAll(reason);
    for (const socket of this.wss.clients) socket.close(1001, 'server stopping');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    // The runs this page started or resumed, with the unsubscribe of each stream.
    const streams = new Map<string, () => void>();
    const send = (message: ServerMessage): void => {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.terminate();
        return;
      }
      socket.send(JSON.stringify(message));
    };
    const stream = (run: Run, afterSeq: number): void => {
      if (streams.has(run.id)) return;
      for (const event of run.events) if (event.seq > afterSeq) send({ type: 'run-event', runId: run.id, event });
      streams.set(run.id, run.onEvent((event) => send({ type: 'run-event', runId: run.id, event })));
      this.directory.watch(run.id);
    };
    send({ type: 'hello', catalog: this.playground.catalog.manifests });

    socket.on('message', (data, isBinary) => {
      if (isBinary) return send({ type: 'error', error: 'binary frames are not accepted; send JSON text' });
      const parsed = parseClientMessage(data.toString());
      if (!parsed.ok) return send({ type: 'error', error: parsed.error });
      const message = parsed.message;
      switch (message.type) {
        case 'start-run': {
          const { requestId } = message;
          const mine = [...streams.keys()].filter((id) => this.directory.get(id)?.done === false).length;
          if (mine >= MAX_RUNS_PER_CONNECTION || this.directory.active >= MAX_RUNS_PER_SERVER) {
            return send({ type: 'run-rejected', requestId, error: 'busy: too many runs are going; try again in a moment' });
          }
          const prepared = this.playground.prepare(message);
          if (!prepared.ok) return send({ type: 'run-rejected', requestId, error: prepared.error });
          const { run } = prepared;
          this.directory.add(run);
          send({ type: 'run-accepted', requestId, runId: run.id });
          stream(run, -1);
          void run.start();
          return;
        }
        case 'subscribe': {
          const run = this.directory.get(message.runId);
          if (!run) return send({ type: 'run-unknown', runId: message.runId });
          return stream(run, message.afterSeq);
        }
        case 'cancel-run':
        case 'fault': {
          const run = streams.has(message.runId) ? this.directory.get(message.runId) : undefined;
          if (!run) return send({ type: 'error', error: `no run '${message.runId}' of this page` });
          if (message.type === 'cancel-run') return run.cancel('cancelled from the page');
          const error = run.fault(message.workerId, message.action);
          if (error) send({ type: 'error', error });
          return;
        }
      }
    });

    // A page that goes away takes its runs with it, unless it comes back in time.
    socket.on('close', () => {
      for (const [runId, unsubscribe] of streams) {
        unsubscribe();
        this.directory.unwatch(runId);
      }
      streams.clear();
    });
    socket.on('error', () => socket.terminate());
  }
}
