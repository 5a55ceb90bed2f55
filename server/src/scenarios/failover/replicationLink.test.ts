// The lab's replication link on plain sockets: it passes bytes both ways, then holds the
// primary's bytes, and loses what it holds when the primary goes away.
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { startReplicationLink, type ReplicationLink } from './replicationLink.js';

let primary: net.Server;
let link: ReplicationLink;
let replica: net.Socket;
afterEach(async () => {
  replica?.destroy();
  await link?.close();
  await new Promise((resolve) => primary?.close(resolve));
});

it('holds what the primary sends, and loses it when the primary goes away', async () => {
  let primarySide: net.Socket | undefined;
  const fromReplica: string[] = [];
  primary = net.createServer((socket) => {
    primarySide = socket;
    socket.on('data', (chunk) => fromReplica.push(chunk.toString()));
  });
  primary.listen(0, '127.0.0.1');
  await once(primary, 'listening');
  link = await startReplicationLink((primary.address() as net.AddressInfo).port);

  replica = net.connect(link.port, '127.0.0.1');
  const received: string[] = [];
  replica.on('data', (chunk) => received.push(chunk.toString()));
  replica.write('PSYNC');
  await expect.poll(() => fromReplica.join('')).toBe('PSYNC');
  primarySide!.write('+FULLRESYNC');
  await expect.poll(() => received.join('')).toBe('+FULLRESYNC');

  link.hold();
  primarySide!.write('SET lock');
  await expect.poll(() => link.heldBytes()).toBe('SET lock'.length);
  replica.write('REPLCONF ACK'); // the replica's side still passes
  await expect.poll(() => fromReplica.join('')).toBe('PSYNCREPLCONF ACK');

  const closed = once(replica, 'close');
  primarySide!.destroy(); // the primary dies
  await closed;
  expect(received.join('')).toBe('+FULLRESYNC');
  expect(link.heldBytes()).toBe(0);
  expect(link.lostBytes()).toBe('SET lock'.length);
});
