// A relay on the host end of a lab link: it takes a lab host's connections to one address
// of the host and passes them to a service the namespace cannot see (the run's own Redis
// and PostgreSQL listen on 127.0.0.1, which is every namespace's own loopback). Bytes pass
// both ways as they come; the partition is not here but in the kernel, on the link before it.
import net from 'node:net';

export interface Relay {
  /** Where the lab host connects: the link's host address and this relay's port. */
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on `listenHost` (a free port) and passes every connection to `target`. */
export function startRelay(listenHost: string, target: { host: string; port: number }): Promise<Relay> {
  return listenRelay(listenHost, target, (inbound, outbound) => {
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
}

/**
 * Listens on `listenHost` (a free port) and pairs each connection it takes with one to
 * `target`: either end gone ends both, as through a real link. `join` passes the bytes between
 * the two (a pipe, or the delay lines of delayRelay.ts) and may return what to clear when they close.
 */
export async function listenRelay(
  listenHost: string,
  target: { host: string; port: number },
  join: (inbound: net.Socket, outbound: net.Socket) => (() => void) | void,
): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host);
    const clear = join(inbound, outbound);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        clear?.();
        inbound.destroy();
        outbound.destroy();
      });
    }
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listenHost, () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the relay has no port');
  return {
    host: listenHost,
    port: address.port,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same URL, pointing at the relay instead of its own host and port. */
export function throughRelay(url: string, relay: Relay): string {
  const parsed = new URL(url);
  parsed.hostname = relay.host;
  parsed.port = String(relay.port);
  return parsed.toString();
}

/** Where a URL's service listens (the relay's target). */
export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  const host = parsed.hostname === 'localhost' || parsed.hostname === '' ? '127.0.0.1' : parsed.hostname.replace(/^\[|\]$/g, '');
  return { host, port: parsed.port ? Number(parsed.port) : defaultPort };
}
