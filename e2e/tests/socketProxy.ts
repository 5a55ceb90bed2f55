// A TCP proxy between the browser and the server under test, for tests that cut the page's
// socket, turn its reconnects away or keep messages from it. It sits on the wire, so it
// sees every connection, whoever holds it: page.routeWebSocket routes a page's own
// WebSockets but not a worker's, and the page's socket is held by its tick worker
// (web/src/ticks/) wherever the browser can draw on a canvas off the main thread.
// The server's WebSocket messages to the page are read frame by frame (the server sends
// them whole and uncompressed); everything else passes byte for byte.
import { test as base } from '@playwright/test';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface SocketProxy {
  /** The proxy's origin: open the page here, and its socket goes through the proxy. */
  readonly origin: string;
  /**
   * Sees each text message the server sends on a page's socket, in order, whether the page
   * gets it or not (after a cut, the server's side may stay open); returns false to keep it
   * from the page.
   */
  onServerMessage: ((text: string) => boolean | void) | null;
  /**
   * Cuts the page's sockets and turns its reconnects away until `release`. The server sees
   * its side close too when `server` says so; otherwise its side stays open and its
   * messages are read and dropped, as for a page on a network that went quiet.
   */
  cut(options: { server: boolean }): void;
  release(): void;
  /** Sockets opened through the proxy so far. */
  readonly socketsOpened: number;
  close(): Promise<void>;
}

interface Pair {
  page: Socket;
  server: Socket;
  /** Cut on the page's side only: the server's side stays open. */
  serverLeftOpen: boolean;
}

/** The server's path for the page's socket (server/src/http/socketServer.ts). */
const SOCKET_REQUEST = /^GET \/ws[ ?]/;

export async function startSocketProxy(target: URL): Promise<SocketProxy> {
  const pairs = new Set<Pair>();
  const all = new Set<Socket>();
  let holding = false;
  let opened = 0;

  const proxy: SocketProxy = {
    origin: '',
    onServerMessage: null,
    cut({ server }) {
      holding = true;
      for (const pair of pairs) {
        pair.serverLeftOpen = !server;
        pair.page.destroy();
      }
    },
    release() {
      holding = false;
    },
    get socketsOpened() {
      return opened;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of all) s.destroy();
        listener.close(() => resolve());
      }),
  };

  /**
   * Hands the server's side of a page's socket to the page: its answer to the upgrade as it
   * is, then a message at a time; an answer that is not an upgrade (a refusal) byte for byte.
   */
  function relayFromServer(pair: Pair): void {
    let buffered = Buffer.alloc(0);
    let state: 'answer' | 'frames' | 'bytes' = 'answer';
    pair.server.on('data', (chunk: Buffer) => {
      if (state === 'bytes') return send(pair, chunk);
      buffered = Buffer.concat([buffered, chunk]);
      if (state === 'answer') {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        state = /^HTTP\/1\.1 101 /.test(buffered.toString('latin1', 0, 13)) ? 'frames' : 'bytes';
        if (state === 'bytes') return send(pair, buffered);
        send(pair, buffered.subarray(0, end + 4));
        buffered = buffered.subarray(end + 4);
      }
      for (let frame = nextFrame(buffered); frame; frame = nextFrame(buffered)) {
        buffered = buffered.subarray(frame.bytes.length);
        const keep = frame.text === undefined || proxy.onServerMessage?.(frame.text) !== false;
        if (keep) send(pair, frame.bytes);
      }
    });
  }

  const send = (pair: Pair, bytes: Buffer) => {
    if (!pair.page.destroyed) pair.page.write(bytes);
  };

  const listener = createServer((page) => {
    all.add(page);
    page.on('close', () => all.delete(page));
    page.on('error', () => undefined);
    page.once('data', (first: Buffer) => {
      const isSocket = SOCKET_REQUEST.test(first.toString('latin1', 0, 16));
      if (isSocket && holding) return void page.destroy();
      const server = connect(Number(target.port), target.hostname);
      all.add(server);
      server.on('close', () => {
        all.delete(server);
        page.destroy();
      });
      server.on('error', () => undefined);
      server.write(first);
      page.on('data', (chunk: Buffer) => server.write(chunk));
      if (!isSocket) {
        server.on('data', (chunk: Buffer) => page.write(chunk));
        page.on('close', () => server.destroy());
        return;
      }
      opened++;
      const pair = { page, server, serverLeftOpen: false };
      pairs.add(pair);
      page.on('close', () => {
        pairs.delete(pair);
        if (!pair.serverLeftOpen) server.destroy();
      });
      relayFromServer(pair);
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  (proxy as { origin: string }).origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  return proxy;
}

/**
 * The first whole WebSocket frame of what the server sent (RFC 6455 §5.2: its frames are
 * not masked), with its text when it is a whole text message; undefined until it is all there.
 */
function nextFrame(data: Buffer): { bytes: Buffer; text?: string } | undefined {
  if (data.length < 2) return undefined;
  const fin = (data[0]! & 0x80) !== 0;
  const opcode = data[0]! & 0x0f;
  let length = data[1]! & 0x7f;
  let header = 2;
  if (length === 126) {
    if (data.length < 4) return undefined;
    length = data.readUInt16BE(2);
    header = 4;
  } else if (length === 127) {
    if (data.length < 10) return undefined;
    length = Number(data.readBigUInt64BE(2));
    header = 10;
  }
  if (data.length < header + length) return undefined;
  const bytes = data.subarray(0, header + length);
  return fin && opcode === 0x1 ? { bytes, text: bytes.toString('utf8', header) } : { bytes };
}

/** Playwright's test with a socket proxy in front of the server under test, one per test. */
export const test = base.extend<{ socketProxy: SocketProxy }>({
  socketProxy: async ({ baseURL }, use) => {
    const proxy = await startSocketProxy(new URL(baseURL!));
    await use(proxy);
    await proxy.close();
  },
});
