// Serves the built page (web/dist) and the catalog; everything else is the WebSocket's.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Answers GET requests for files under `root`, with index.html for page routes at the root's level. */
export function serveStatic(root: string, request: IncomingMessage, response: ServerResponse): void {
  let path: string;
  try {
    path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
  } catch {
    // Malformed percent-encoding or URL: nobody's file.
    response.writeHead(400, { 'content-type': 'text/plain' }).end('bad path\n');
    return;
  }
  if (path.includes('\0')) {
    response.writeHead(400, { 'content-type': 'text/plain' }).end('bad path\n');
    return;
  }
  // normalize() resolves '..'; anything that still leaves the root is refused.
  const wanted = normalize(join(root, path));
  if (!wanted.startsWith(root + sep) && wanted !== root) {
    response.writeHead(403).end();
    return;
  }
  // A symbolic link is followed only to a file inside the root: a link to /etc/passwd (or to
  // anything outside) is not served.
  const real = existsSync(wanted) ? realpathSync(wanted) : null;
  const realRoot = existsSync(root) ? realpathSync(root) : root;
  if (real !== null && real !== realRoot && !real.startsWith(realRoot + sep)) {
    response.writeHead(403).end();
    return;
  }
  const found = real !== null && statSync(real).isFile() ? real : null;
  // The page's URLs are relative to it (./assets/…): a path at the root's level (/, /?scenario=…,
  // /anything) is the page; a deeper one that names no file (/assets/gone.js, /a/b) is a 404,
  // not the page under a path its assets would not load from.
  if (found === null && path.lastIndexOf('/') > 0) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  const file = found ?? join(root, 'index.html');
  if (!existsSync(file)) {
    response.writeHead(503, { 'content-type': 'text/plain' }).end('The page is not built: run `npm run build`.\n');
    return;
  }
  const immutable = file.includes(`${sep}assets${sep}`);
  response.writeHead(200, {
    'content-type': types[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}
