// The pages' WebSocket server: takes the upgrade of a page of this server's own origin and
// gives the page its connection (pageConnection.ts: validates every message against the
// shared protocol, starts runs and streams their events), keeps the documented ws
// heartbeat, counts each address's runs, and when it closes, cancels every run and waits
// for the pages to hear why. A bad message gets an error back; the socket, the server and
// everyone else's runs carry on.
//
// What a page may send is bounded at every step, in this order: the rate (a token bucket
// per connection), the frame (64 KiB answered with an error; past 1 MiB ws closes the
// socket with 1009), binary or invalid UTF-8 (an error), JSON and the shared schema (an
// error naming the field), then the catalog (unknown scenario, variant, parameter or
// bound: run-rejected), a page's and an address's share of runs (run-rejected "busy"), and the
// server's slots and worker processes: past them a start waits in line (queueDesk.ts), and
// past the line's bound it is answered "busy" too. Each bound is in limits.ts.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Playground } from '../runs/playground.js';
import { clientAddress, type TrustedProxies } from './clientAddress.js';
import { refuseUpgrade } from './hosts.js';
import { DEFAULT_LIMITS, type SocketLimits } from './limits.js';
import { PageConnection, type PageServer } from './pageConnection.js';
import { QueueDesk } from './queueDesk.js';
import { RunDirectory } from './runDirectory.js';
import type { ExerciseService } from '../exercises/exerciseService.js';

export class SocketServer implements PageServer {
  private readonly wss: WebSocketServer;
  readonly directory = new RunDirectory();
  readonly limits: SocketLimits;
  /** The line of starts waiting for a slot. */
  readonly desk: QueueDesk;
  private readonly heartbeat: NodeJS.Timeout;
  private stopping = false;

  constructor(
    readonly playground: Playground,
    limits: Partial<SocketLimits> = {},
    /** Host names besides localhost and IP literals that pages may use (RACELAB_ALLOWED_HOSTS). */
    private readonly allowedHosts: readonly string[] = [],
    /** The server's exercises: a page's run of edited code goes through them. */
    readonly exercises?: ExerciseService,
    /** Proxies whose X-Forwarded-For names the page's address (RACELAB_TRUSTED_PROXIES; clientAddress.ts). */
    private readonly trustedProxies: TrustedProxies = [],
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.desk = new QueueDesk(this.limits, this.directory, playground.budget ?? undefined);
    // UTF-8 is checked here rather than by ws, so that a bad frame gets an answer instead of a 1007 close.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.limits.maxPayloadBytes, skipUTF8Validation: true });
    this.wss.on(
      'connection',
      (socket, request: IncomingMessage) => new PageConnection(socket, clientAddress(request, this.trustedProxies), this),
    );
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

  /** Runs started from a network address that are still going. */
  runsOf(address: string): string[] {
    const going = (this.byAddress.get(address) ?? []).filter((id) => this.directory.get(id)?.isSettled === false);
    if (going.length === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, going);
    return going;
  }

  /** Counts a run against the address it was started from (`going`: the address's runs before it). */
  startedFrom(address: string, going: string[], runId: string): void {
    this.byAddress.set(address, [...going, runId]);
  }

  /** True once the server refuses new runs. */
  get closing(): boolean {
    return this.stopping;
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
    this.stopping = true;
    clearInterval(this.heartbeat);
    this.desk.close('the server is stopping');
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
}
