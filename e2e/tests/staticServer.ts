// A plain static file server of the built page (web/dist) on a free port, with no /ws, no
// Redis and no PostgreSQL behind it: what a laptop on bad conference Wi-Fi has. With
// `base`, it serves the folder under that sub-path only, as a static host does a project's
// pages (https://example.org/racelab/), and a file it does not have is a 404, not the page.
// With `gzip`, text is sent compressed to a browser that asks, as static hosts do.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface StaticServerOptions {
  /** The sub-path the folder is served under ('/some/sub/path/'); default '/', with every unknown path answered by index.html. */
  base?: string;
  gzip?: boolean;
}

export interface StaticServer {
  /** The server's origin (http://127.0.0.1:<port>). */
  url: string;
  /** Where the folder is served: the origin and the base ('http://127.0.0.1:<port>/some/sub/path/'). */
  pageUrl: string;
  close(): Promise<void>;
}

export async function startStaticServer(root = DIST, options: StaticServerOptions = {}): Promise<StaticServer> {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${root} has no index.html: run npm run build first`);
  const base = options.base ?? '/';
  // Under a sub-path, as a static host: no page for paths it lacks.
  const fallback = base === '/';
  const zipped = new Map<string, Buffer>();
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (!pathname.startsWith(base)) return void response.writeHead(404).end();
    const wanted = normalize(join(root, pathname.slice(base.length)));
    if (!wanted.startsWith(root + sep) && wanted !== root) return void response.writeHead(403).end();
    const found = existsSync(wanted) && statSync(wanted).isFile() ? wanted : null;
    const file = found ?? (fallback || pathname === base ? join(root, 'index.html') : null);
    if (!file) return void response.writeHead(404).end();
    const type = TYPES[extname(file)];
    if (options.gzip && type && /\bgzip\b/.test(String(request.headers['accept-encoding']))) {
      let body = zipped.get(file);
      if (!body) zipped.set(file, (body = gzipSync(readFileSync(file))));
      response.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
      return;
    }
    response.writeHead(200, { 'content-type': type ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  // No WebSocket here: an upgrade to /ws is refused, like a server that is not there.
  server.on('upgrade', (_request, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pageUrl: `http://127.0.0.1:${port}${base}`,
    // Every connection goes with it: close() alone waits for a response the page has not
    // finished reading, and a page still open may never finish it.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
