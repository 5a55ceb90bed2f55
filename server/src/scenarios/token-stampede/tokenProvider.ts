// The OAuth-like token provider of a run: a real HTTP service on 127.0.0.1, started by
// setup and stopped by close. Each refresh issues a new token and revokes the previous
// one; the API answers 401 to any token but the current, unexpired one. It counts every
// call itself: the verdict's numbers come from here, never from what workers say.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunFixture } from '../types.js';

export interface ProviderOptions {
  /** How long a refresh takes before the new token is issued, in ms. */
  latencyMs: number;
  /** Life of an issued token, in ms. */
  ttlMs: number;
}

export interface ProviderCounts {
  refreshCalls: number;
  /** Requests (by x-request-id) whose last API answer was 200. */
  requestsOk: number;
  /** Requests whose last API answer was 401. */
  requestsFailed: number;
  /** Every API answer, retries included. */
  apiOk: number;
  api401: number;
}

export interface TokenProvider extends RunFixture {
  url: string;
  counts(): ProviderCounts;
  /** The current token as the provider sees it right now, e.g. "tok-3" or "tok-3 (expired)". */
  currentToken(): string;
  close(): Promise<void>;
}

interface Issued {
  value: string;
  expiresAtMs: number;
}

const issue = (n: number, expiresAtMs: number): Issued => ({
  value: `tok-${n}.${randomBytes(3).toString('hex')}`,
  expiresAtMs,
});

/** Starts the provider on a free port. Its first token, tok-0, is already expired. */
export async function startTokenProvider(options: ProviderOptions): Promise<TokenProvider> {
  let issuedCount = 0;
  let current = issue(0, Date.now() - 1);
  let refreshCalls = 0;
  let apiOk = 0;
  let api401 = 0;
  const lastStatus = new Map<string, number>();
  const pending = new Set<NodeJS.Timeout>();

  const refresh = (res: ServerResponse): void => {
    refreshCalls++; // counted on arrival: a call in flight is a call made
    const timer = setTimeout(() => {
      pending.delete(timer);
      current = issue(++issuedCount, Date.now() + options.ttlMs); // the previous token is revoked here
      send(res, 200, { accessToken: current.value, expiresInMs: options.ttlMs });
    }, options.latencyMs);
    pending.add(timer);
  };

  const api = (req: IncomingMessage, res: ServerResponse): void => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const reason = token !== current.value ? 'revoked or unknown' : Date.now() >= current.expiresAtMs ? 'expired' : null;
    const status = reason ? 401 : 200;
    if (status === 200) apiOk++;
    else api401++;
    const requestId = req.headers['x-request-id'];
    if (typeof requestId === 'string') lastStatus.set(requestId, status);
    send(res, status, reason ? { error: reason } : { ok: true });
  };

  const server = createServer((req, res) => {
    req.resume(); // no bodies are read; drain whatever came
    if (req.method === 'POST' && req.url === '/token') return refresh(res);
    if (req.method === 'GET' && req.url === '/api') return api(req, res);
    send(res, 404, { error: 'not found' });
  });
  // Idle keep-alive sockets stay open between waves: a server closing one while a client
  // reuses it would fail a request for reasons that have nothing to do with tokens.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    shared: { providerUrl: `http://127.0.0.1:${port}`, expiredToken: current.value },
    counts() {
      let requestsOk = 0;
      for (const status of lastStatus.values()) if (status === 200) requestsOk++;
      return { refreshCalls, requestsOk, requestsFailed: lastStatus.size - requestsOk, apiOk, api401 };
    },
    currentToken() {
      const name = current.value.split('.')[0]!;
      return Date.now() >= current.expiresAtMs ? `${name} (expired)` : name;
    },
    async close() {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
