// A Redis address on the far side of a network partition: it takes the connection and
// never answers a byte, as when packets are dropped on the way. A client learns nothing
// from it but its own timeout, which is exactly what Redlock's per-node timeout is for.
// A link is the same address before the partition: it passes bytes both ways to the node
// until it is cut, and from then on is that blackhole, for the connections it had and for new ones.
import net, { type Socket } from 'node:net';

export interface Blackhole {
  url: string;
  close(): Promise<void>;
}

export interface Link extends Blackhole {
  /** From now on nothing passes, either way; the connections stay open and silent. */
  cut(): void;
}

/** Listens on a free 127.0.0.1 port; `onConnection` is handed each socket the server takes. */
async function listen(onConnection: (socket: Socket) => void, sockets: Set<Socket>): Promise<Blackhole> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the blackhole has no TCP port');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function startBlackhole(): Promise<Blackhole> {
  // Read and drop whatever the client sends.
  return listen((socket) => socket.resume(), new Set());
}

/** A link to the Redis at `targetUrl`, in this process, that a `cut()` turns into a blackhole. */
export async function startLink(targetUrl: string): Promise<Link> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let cut = false;
  const blackhole = await listen((client) => {
    if (cut) return void client.resume();
    client.setNoDelay(true);
    const node = net.connect(Number(target.port), target.hostname);
    sockets.add(node);
    node.setNoDelay(true);
    node.on('error', () => undefined);
    // Either end gone ends both, as a connection through a real link does.
    node.on('close', () => {
      sockets.delete(node);
      client.destroy();
    });
    client.on('close', () => node.destroy());
    client.on('data', (chunk) => void (cut || node.write(chunk)));
    node.on('data', (chunk) => void (cut || client.write(chunk)));
  }, sockets);
  return {
    ...blackhole,
    cut() {
      cut = true;
    },
  };
}
