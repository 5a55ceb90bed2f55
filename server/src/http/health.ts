// The probes of an orchestrator or a proxy, and the scrape of Prometheus:
// - GET /healthz: the process serves HTTP. Asks nothing of anyone (no store, no worker): a
//   liveness probe that restarts a server whose Redis is down would only add a restart to the outage.
// - GET /readyz: this server should be given new pages now. Both stores answer a ping on the
//   store watch's own connections within READY_TIMEOUT_MS, the warm worker pool has been
//   filled and can start workers, the server is not full (a run slot free, or fewer than
//   `queuedWhenNotReady` starts in line), and the server is not stopping. A full server is not
//   ready on purpose: the proxy then sends new pages to a server with room, while the pages
//   already here keep their WebSocket and their places in line (readiness takes a server out
//   of the rotation for new connections; it closes none).
// - GET /metrics: Prometheus text (serverMetrics.ts).
// These answer whatever the Host header says: a kubelet or a scraper names the server by an
// address or a service name the page's allowed hosts do not list, and none of them serves a page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORE_STORES } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { ProbeAnswer } from '../runs/storeWatch.js';
import { METRICS_PATH, type ServerMetrics } from './serverMetrics.js';
import type { SocketServer } from './socketServer.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** How long a readiness probe waits for each store, in ms: under a kubelet's default probe timeout (1 s). */
export const READY_TIMEOUT_MS = 500;

/** The answer of /readyz, as JSON: ready, or every reason it is not. */
export interface Readiness {
  ready: boolean;
  /** Why not, one line each (empty when ready). */
  reasons: string[];
  /** Each store's round trip, in ms, when it answered. */
  storesMs: Record<string, number>;
  slots: { taken: number; of: number };
  /** Starts waiting in line, and how many make a server with every slot taken not ready. */
  queue: { waiting: number; notReadyAt: number };
  pool: { processes: number; idle: number; target: number };
}

export class HealthRoutes {
  /** The probe under way: concurrent probes share its pings instead of adding their own. */
  private checking: Promise<Readiness> | null = null;

  constructor(
    private readonly playground: Playground,
    private readonly sockets: SocketServer,
    private readonly metrics: ServerMetrics,
  ) {}

  /** Is this request one of the probes or the scrape? */
  handles(request: IncomingMessage): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = (request.url ?? '').split('?')[0];
    return path === HEALTH_PATH || path === READY_PATH || path === METRICS_PATH;
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '').split('?')[0];
    response.setHeader('cache-control', 'no-store');
    if (path === HEALTH_PATH) {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(request.method === 'HEAD' ? undefined : 'ok\n');
      return;
    }
    const answer = path === READY_PATH ? this.readyAnswer() : this.metricsAnswer();
    answer.then(
      ({ status, type, body }) => response.writeHead(status, { 'content-type': type }).end(request.method === 'HEAD' ? undefined : body),
      (error: unknown) => {
        console.error(`racelab: ${path} failed: ${this.playground.redact(String(error))}`);
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end();
      },
    );
  }

  /** Checks readiness now (probes under way shared). */
  readiness(): Promise<Readiness> {
    this.checking ??= this.check().finally(() => (this.checking = null));
    return this.checking;
  }

  private async readyAnswer(): Promise<{ status: number; type: string; body: string }> {
    const readiness = await this.readiness();
    return { status: readiness.ready ? 200 : 503, type: 'application/json; charset=utf-8', body: `${JSON.stringify(readiness)}\n` };
  }

  private async metricsAnswer(): Promise<{ status: number; type: string; body: string }> {
    const { text, contentType } = await this.metrics.scrape();
    return { status: 200, type: contentType, body: text };
  }

  private async check(): Promise<Readiness> {
    const reasons: string[] = [];
    if (this.sockets.closing) reasons.push('the server is stopping');
    const answers: Record<string, ProbeAnswer> = await this.playground.probeStores(READY_TIMEOUT_MS);
    const storesMs: Record<string, number> = {};
    for (const store of CORE_STORES) {
      const answer = answers[store]!;
      if (answer.ok) storesMs[store] = Math.round(answer.ms * 10) / 10;
      else reasons.push(answer.reason);
    }
    const cold = this.playground.pool.coldness();
    if (cold) reasons.push(cold);
    const slots = { taken: this.sockets.directory.active, of: this.sockets.limits.maxRunsPerServer };
    const queue = { waiting: this.sockets.desk.length, notReadyAt: this.sockets.limits.queuedWhenNotReady };
    if (slots.taken >= slots.of && queue.waiting >= queue.notReadyAt) {
      reasons.push(`every run slot taken (${slots.taken} of ${slots.of}) and ${queue.waiting} starts in line`);
    }
    const { pool } = this.playground;
    return {
      ready: reasons.length === 0,
      reasons,
      storesMs,
      slots,
      queue,
      pool: { processes: pool.size, idle: pool.idleCount, target: pool.target },
    };
  }
}
