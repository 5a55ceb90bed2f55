// The network between the primary and the far replica: a small TCP proxy of the lab's own.
// The replica connects to it as if it were the primary. Bytes from the replica pass at
// once; bytes from the primary (the replication stream) pass until `hold()`, then wait in
// the proxy — a link slower than the run. When the primary dies, what the link still
// holds is lost with it, as bytes in flight are when a machine goes down.
import net from 'node:net';
import { MECHANISM } from '../../labnet/mechanisms.js';

/** The network between the primary and the far replica, whichever mechanism plays it (this proxy, or kernelLink.ts). */
export interface FarLink {
  /** What plays the link's lag: the words of the fault's `mechanism`. */
  mechanism: string;
  /** Where the far replica connects to reach the primary. */
  target: { host: string; port: number };
  /** From now on, the primary's bytes stay on the way instead of reaching the far replica. */
  hold(): Promise<void>;
  /** The primary is about to be killed: what the link holds now is lost with it. */
  primaryDying(): Promise<void>;
  /** Bytes of the primary's replication stream held on the way now, and lost with a dead primary. */
  bytes(): Promise<{ held: number; lost: number }>;
  close(): Promise<void>;
}

export interface ReplicationLink {
  /** Where the replica connects instead of the primary. */
  port: number;
  /** From now on, the primary's bytes wait in the link instead of reaching the replica. */
  hold(): void;
  /** Bytes from the primary the link holds right now. */
  heldBytes(): number;
  /** Bytes from the primary that were held when their connection ended: never delivered. */
  lostBytes(): number;
  close(): Promise<void>;
}

/** Starts a link on a free 127.0.0.1 port that forwards to the primary at `targetPort`. */
export async function startReplicationLink(targetPort: number): Promise<ReplicationLink> {
  let holding = false;
  let lost = 0;
  const pipes = new Set<{ held: Buffer[]; client: net.Socket; primary: net.Socket }>();

  const server = net.createServer((client) => {
    const primary = net.connect(targetPort, '127.0.0.1');
    const pipe = { held: [] as Buffer[], client, primary };
    pipes.add(pipe);
    client.setNoDelay(true);
    primary.setNoDelay(true);
    client.on('data', (chunk) => primary.write(chunk));
    primary.on('data', (chunk) => (holding ? pipe.held.push(chunk) : client.write(chunk)));
    // Either side gone ends both at once, and the held bytes are dropped, never delivered.
    const end = (): void => {
      lost += pipe.held.reduce((n, b) => n + b.length, 0);
      pipe.held = [];
      pipes.delete(pipe);
      client.destroy();
      primary.destroy();
    };
    for (const socket of [client, primary]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the replication link has no port');

  return {
    port: address.port,
    hold() {
      holding = true;
    },
    heldBytes: () => [...pipes].reduce((n, p) => n + p.held.reduce((m, b) => m + b.length, 0), 0),
    lostBytes: () => lost,
    close() {
      for (const pipe of pipes) {
        pipe.client.destroy();
        pipe.primary.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The proxy as the far replica's link, where the machine gives no namespace or no nftables. */
export async function proxyLink(primaryPort: number): Promise<FarLink> {
  const link = await startReplicationLink(primaryPort);
  return {
    mechanism: MECHANISM.proxy,
    target: { host: '127.0.0.1', port: link.port },
    hold: async () => link.hold(),
    primaryDying: async () => undefined, // the proxy sees the primary's connection end, and counts
    bytes: async () => ({ held: link.heldBytes(), lost: link.lostBytes() }),
    close: () => link.close(),
  };
}
