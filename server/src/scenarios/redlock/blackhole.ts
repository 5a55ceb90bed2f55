// A Redis address on the far side of a network partition: it takes the connection and
// never answers a byte, as when packets are dropped on the way. A client learns nothing
// from it but its own timeout, which is exactly what Redlock's per-node timeout is for.
import net, { type Socket } from 'node:net';

export interface Blackhole {
  url: string;
  close(): Promise<void>;
}

export async function startBlackhole(): Promise<Blackhole> {
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.resume(); // read and drop whatever the client sends
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
