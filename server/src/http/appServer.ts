// One port for everything: the built page, the catalog as JSON, and the WebSocket at /ws.
import { createServer, type Server } from 'node:http';
import type { Playground } from '../runs/playground.js';
import { SocketServer } from './socketServer.js';
import { serveStatic } from './staticFiles.js';

export interface AppServer {
  http: Server;
  sockets: SocketServer;
}

/** Creates (does not start) the HTTP server of the page, the catalog and the socket. */
export function createAppServer(playground: Playground, webRoot: string): AppServer {
  const sockets = new SocketServer(playground);
  const http = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (request.url === '/api/catalog') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(playground.catalog.manifests));
      return;
    }
    serveStatic(webRoot, request, response);
  });
  http.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/ws') socket.destroy();
    else sockets.handleUpgrade(request, socket, head);
  });
  return { http, sockets };
}
