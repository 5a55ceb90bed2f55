// A Redis address on the far side of a network partition: it takes the connection and
// never answers a byte, as when packets are dropped on the way. A client learns nothing
// from it but its own timeout, which is exactly what Redlock's per-node timeout is for.
// A link is the same address before the partition: it passes bytes both ways to the node
// until it is cut, and from then on holds what the client sends, for the connections it had
// and for new ones (a new one reaches the node only once the link is back). Rejoined, it
// delivers what it held, in order, and passes bytes again: as TCP sends again what a
// kernel's drop lost, so that an old connection goes on where it stopped. Unlike the
// kernel's, whose next retransmission may come seconds after the rule is gone (its
// backoff doubles while the cut lasts), the link delivers at once. What the node sends
// passes even while cut, as the kernel's rule (on what the worker sends) lets it: only the
// answer to a request sent before the cut can be on its way then.
import net, { type Socket } from 'node:net';

export interface Blackhole {
  url: string;
  close(): Promise<void>;
}

export interface Link extends Blackhole {
  /** From now on nothing the client sends passes; the connections stay open and silent. */
  cut(): void;
  /** Delivers what was held, in order, and passes bytes again, for the connections it had and for new ones. */
  rejoin(): void;
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

/** A link to the Redis at `targetUrl`, in this process, that a `cut()` turns into a blackhole and a `rejoin()` back into a link. */
export async function startLink(targetUrl: string): Promise<Link> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  /** Each client's connection, and its connection to the node once it has one. */
  const pairs = new Map<Socket, Socket | null>();
  let cut = false;
  // What the client sends goes to the node; a paused client holds it (in its stream and the
  // kernel's buffers) until resumed, and then delivers it in order.
  const wire = (client: Socket): void => {
    const node = net.connect(Number(target.port), target.hostname);
    pairs.set(client, node);
    sockets.add(node);
    node.setNoDelay(true);
    node.on('error', () => undefined);
    // Either end gone ends both, as a connection through a real link does.
    node.on('close', () => {
      sockets.delete(node);
      client.destroy();
    });
    client.on('close', () => node.destroy());
    client.on('data', (chunk) => void node.write(chunk));
    node.on('data', (chunk) => void client.write(chunk));
  };
  const blackhole = await listen((client) => {
    client.setNoDelay(true);
    pairs.set(client, null);
    client.on('close', () => pairs.delete(client));
    // Taken while cut: held, and joined to the node once the link is back.
    if (cut) client.pause();
    else wire(client);
  }, sockets);
  return {
    ...blackhole,
    cut() {
      cut = true;
      for (const client of pairs.keys()) client.pause();
    },
    rejoin() {
      cut = false;
      for (const [client, node] of pairs) {
        if (node === null && !client.destroyed) wire(client);
        client.resume();
      }
    },
  };
}
