// A TCP proxy on a free port in front of a store, for tests of a store that freezes: frozen,
// it keeps every connection open and passes nothing either way (new ones are accepted and
// held), as a SIGSTOPped server does, without stopping a server that others share. A test
// may also watch what clients send, to freeze at a chosen moment (before the bytes go on).
import net from 'node:net';

export interface FreezableProxy {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** Passes nothing from now on; connections stay open. */
  freeze(): void;
  /** Passes again what was held and what comes next. */
  thaw(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a proxy to 127.0.0.1:`targetPort`; `onClientData` sees each chunk a client sends before it goes on. */
export async function startFreezableProxy(targetPort: number, onClientData?: (chunk: Buffer) => void): Promise<FreezableProxy> {
  let frozen = false;
  let accepted = 0;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(targetPort, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    if (frozen) pair.forEach((socket) => socket.pause());
    client.on('data', (chunk: Buffer) => {
      onClientData?.(chunk);
      upstream.write(chunk);
      if (frozen) client.pause(); // this chunk was read before the freeze; nothing after it
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = (): void => {
      pairs.delete(pair);
      pair.forEach((socket) => socket.destroy());
    };
    for (const socket of pair) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    get accepted() {
      return accepted;
    },
    freeze() {
      frozen = true;
      for (const pair of pairs) pair.forEach((socket) => socket.pause());
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) pair.forEach((socket) => socket.resume());
    },
    async close() {
      for (const pair of pairs) pair.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
