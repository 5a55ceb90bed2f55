// The instructor's room view (room.ts gathers the figures):
// - GET /room: the page (roomPage.ts), which polls the JSON below every 2 s.
// - GET /room.js, /room.css: its script and style, files of their own because the page's
//   Content-Security-Policy runs no inline script. They hold no figures, so they ask no token.
// - GET /api/room: every live server's figures, the totals and the runs finished by scenario.
// - POST /api/room/reset: starts the counters again, for a new workshop.
// The page and the API ask for the token (RACELAB_ROOM_TOKEN), as ?token= or an
// Authorization: Bearer header. Without a token configured the view is off and says how to
// turn it on; the figures are the room's, not anyone's to read.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RoomBoard } from './room.js';
import { ROOM_CSS, ROOM_HTML, ROOM_JS } from './roomPage.js';

export const ROOM_OFF =
  'The room view is off: start every server of the room with RACELAB_ROOM_TOKEN set to a secret (or --room-token), then open /room?token=<the secret>.\n';

const PAGE_PATH = '/room';
const API_PATH = '/api/room';
const RESET_PATH = '/api/room/reset';
const ASSETS = new Map([
  ['/room.js', { type: 'text/javascript; charset=utf-8', body: ROOM_JS }],
  ['/room.css', { type: 'text/css; charset=utf-8', body: ROOM_CSS }],
]);

export class RoomRoutes {
  /** The token as a digest: compared in constant time with the digest of what a request says. */
  private readonly tokenDigest: Buffer | null;

  constructor(
    private readonly board: RoomBoard | null,
    token: string | undefined,
    private readonly redact: (text: string) => string,
  ) {
    this.tokenDigest = token ? digest(token) : null;
  }

  handles(request: IncomingMessage): boolean {
    const path = pathOf(request);
    return path === PAGE_PATH || path === API_PATH || path === RESET_PATH || ASSETS.has(path);
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    const path = pathOf(request);
    response.setHeader('cache-control', 'no-store');
    const wanted = path === RESET_PATH ? 'POST' : 'GET';
    const allowed = wanted === 'GET' ? ['GET', 'HEAD'] : ['POST'];
    if (!allowed.includes(request.method ?? '')) {
      response.writeHead(405, { allow: allowed.join(', ') }).end();
      return;
    }
    if (!this.board || !this.tokenDigest) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(ROOM_OFF);
      return;
    }
    const asset = ASSETS.get(path);
    if (asset) {
      response.writeHead(200, { 'content-type': asset.type }).end(request.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    if (!this.allows(request)) {
      response
        .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="racelab room"' })
        .end('The room view needs its token: add ?token=<the secret> to the address, or send Authorization: Bearer <the secret>.\n');
      return;
    }
    if (path === PAGE_PATH) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(request.method === 'HEAD' ? undefined : ROOM_HTML);
      return;
    }
    this.answerJson(request, response, path === RESET_PATH ? this.board.reset().then((since) => ({ since })) : this.board.snapshot());
  }

  /** Does the request carry the token? Bearer first, then ?token=. */
  private allows(request: IncomingMessage): boolean {
    const header = request.headers.authorization ?? '';
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const given = bearer ?? queryToken(request);
    // Both sides hashed: equal-length buffers whatever was sent, so the comparison says nothing of the token's length.
    return given !== undefined && timingSafeEqual(digest(given), this.tokenDigest!);
  }

  private answerJson(request: IncomingMessage, response: ServerResponse, answer: Promise<unknown>): void {
    answer.then(
      (body) =>
        response
          .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
          .end(request.method === 'HEAD' ? undefined : `${JSON.stringify(body)}\n`),
      (error: unknown) => {
        console.error(`racelab: ${pathOf(request)} failed: ${this.redact(String(error))}`);
        if (!response.headersSent) response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('The room could not be read from Redis; try again in a moment.\n');
      },
    );
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '').split('?')[0] ?? '';
}

function queryToken(request: IncomingMessage): string | undefined {
  try {
    return new URL(request.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined;
  } catch {
    return undefined;
  }
}
