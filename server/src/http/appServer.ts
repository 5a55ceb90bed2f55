// One port for everything: the built page, the catalog as JSON, the check of a lock of your
// own (ownLockCheck.ts), the exercises (exerciseRoutes.ts), the WebSocket at /ws, the
// probes and metrics of an orchestrator (health.ts: /healthz, /readyz, /metrics), and the
// instructor's room view behind its token (roomRoutes.ts: /room, /api/room).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Playground } from '../runs/playground.js';
import type { TrustedProxies } from './clientAddress.js';
import { isAllowedHost } from './hosts.js';
import { OwnLockChecks, type OwnLockOptions } from './ownLockCheck.js';
import { ExerciseService } from '../exercises/exerciseService.js';
import { EXERCISES_OFF, type ExercisePolicy } from '../exercises/policy.js';
import { ExerciseRoutes } from './exerciseRoutes.js';
import { frameAncestors, securityHeaders } from './securityHeaders.js';
import type { SocketLimits } from './limits.js';
import { SocketServer } from './socketServer.js';
import { serveStatic } from './staticFiles.js';
import { HealthRoutes } from './health.js';
import { ServerMetrics } from './serverMetrics.js';
import { RoomBoard, type RoomOptions } from './room.js';
import { RoomRoutes } from './roomRoutes.js';

export interface AppServer {
  http: Server;
  sockets: SocketServer;
  /** The server's Prometheus metrics (/metrics). */
  metrics: ServerMetrics;
  /** The server's part of the room view, when RACELAB_ROOM_TOKEN turns it on; close() it before the playground. */
  room: RoomBoard | null;
}

export interface AppServerOptions {
  /** Limits of the WebSocket (tests raise or lower them); the defaults otherwise. */
  limits?: Partial<SocketLimits>;
  /** Host names besides localhost and IP literals that pages may use (RACELAB_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** Origins besides its own that may frame the page (RACELAB_FRAME_ANCESTORS). */
  frameAncestors?: string;
  /** Set when the server runs lock modules uploaded from the page (--allow-own-locks); off otherwise. */
  ownLocks?: OwnLockOptions;
  /** Whether edited exercise code runs here, and why (exercises/policy.ts); none when absent. */
  exercises?: ExercisePolicy;
  /** Proxies whose X-Forwarded-For names a page's address (RACELAB_TRUSTED_PROXIES); none when absent. */
  trustedProxies?: TrustedProxies;
  /**
   * This server's name among several behind one proxy (RACELAB_SERVER_NAME), sent as the
   * x-racelab-server header of every HTTP answer, so that one can tell which server answered.
   */
  serverName?: string;
  /** The room view (RACELAB_ROOM_TOKEN): off, and nothing written to Redis, without a token. */
  room?: RoomOptions;
}

/** Creates (does not start) the HTTP server of the page, the catalog and the socket. */
export function createAppServer(playground: Playground, webRoot: string, options: AppServerOptions = {}): AppServer {
  const allowedHosts = options.allowedHosts ?? [];
  const exercises = new ExerciseService(playground, options.exercises ?? EXERCISES_OFF);
  const sockets = new SocketServer(playground, options.limits, allowedHosts, exercises, options.trustedProxies);
  const headers = securityHeaders(frameAncestors(options.frameAncestors));
  if (options.serverName) headers['x-racelab-server'] = options.serverName;
  const ownLocks = new OwnLockChecks(options.ownLocks, allowedHosts, playground.redact);
  const exerciseRoutes = new ExerciseRoutes(exercises, allowedHosts, options.trustedProxies);
  const metrics = new ServerMetrics(playground, sockets);
  const health = new HealthRoutes(playground, sockets, metrics);
  const room = options.room?.token ? new RoomBoard(playground, sockets, health, options.room) : null;
  const roomRoutes = new RoomRoutes(room, options.room?.token, playground.redact);
  const routes = { playground, webRoot, allowedHosts, health, ownLocks, exerciseRoutes, roomRoutes };
  const http = createServer((request, response) => {
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    try {
      serveRequest(routes, request, response);
    } catch (error) {
      // A request the handlers did not foresee fails alone; the server carries on.
      console.error(`racelab: request failed: ${playground.redact(String(error))}`);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end();
    }
  });
  http.on('upgrade', (request, socket, head) => {
    socket.on('error', () => socket.destroy());
    let path: string | undefined;
    try {
      path = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      path = undefined;
    }
    if (path !== '/ws') socket.destroy();
    else sockets.handleUpgrade(request, socket, head);
  });
  // Malformed HTTP gets a 400 and is closed; nothing else notices.
  http.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  // The server leaves the room as it stops listening, in case its owner did not close the board first.
  http.on('close', () => void room?.close());
  return { http, sockets, metrics, room };
}

interface Routes {
  playground: Playground;
  webRoot: string;
  allowedHosts: readonly string[];
  health: HealthRoutes;
  ownLocks: OwnLockChecks;
  exerciseRoutes: ExerciseRoutes;
  roomRoutes: RoomRoutes;
}

/** One HTTP request, to the first route that takes it: probes, the APIs, then the page's files. */
function serveRequest(routes: Routes, request: IncomingMessage, response: ServerResponse): void {
  const { playground, health, ownLocks, exerciseRoutes } = routes;
  // Before the Host check: probes and scrapers name the server as they please (health.ts).
  if (health.handles(request)) {
    health.serve(request, response);
    return;
  }
  if (!isAllowedHost(request.headers.host, routes.allowedHosts)) {
    response.writeHead(403, { 'content-type': 'text/plain' }).end('unknown Host\n');
    return;
  }
  if (ownLocks.handles(request)) {
    ownLocks.serve(request, response);
    return;
  }
  if (exerciseRoutes.handles(request)) {
    exerciseRoutes.serve(request, response);
    return;
  }
  if (routes.roomRoutes.handles(request)) {
    routes.roomRoutes.serve(request, response);
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  if (request.url === '/api/catalog') {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(playground.catalog.manifests));
    return;
  }
  serveStatic(routes.webRoot, request, response);
}
