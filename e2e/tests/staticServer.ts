// A plain static file server of the built page (web/dist) on a free port, with no /ws, no
// Redis and no PostgreSQL behind it: what a laptop on bad conference Wi-Fi has.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function startStaticServer(root = DIST): Promise<StaticServer> {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${root} has no index.html: run npm run build first`);
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const wanted = normalize(join(root, path));
    if (!wanted.startsWith(root + sep) && wanted !== root) return void response.writeHead(403).end();
    const file = existsSync(wanted) && statSync(wanted).isFile() ? wanted : join(root, 'index.html');
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  // No WebSocket here: an upgrade to /ws is refused, like a server that is not there.
  server.on('upgrade', (_request, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
