// The slow node's proxy on real sockets: every byte held at least latencyMs each way, in
// order; a "lost" chunk a retransmission timeout more, with the chunks after it behind it.
// The same relay in this process and in the relay host (relayHost.ts), where the labs run it.
import net from 'node:net';
import { seededRandom } from '@racelab/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { monotonicNs } from '../time/clock.js';
import { DelayLine, RETRANSMISSION_TIMEOUT_MS, startDelayRelay, type Slowdown } from './delayRelay.js';
import { startHostedDelayRelay } from './relayHost.js';

const nowMs = (): number => Number(monotonicNs()) / 1e6;

/** An echo server that notes when each byte arrived (monotonic ms). */
async function echoServer(): Promise<{ port: number; arrivals: Array<{ byte: number; atMs: number }>; close(): Promise<void> }> {
  const arrivals: Array<{ byte: number; atMs: number }> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      const atMs = nowMs();
      for (const byte of chunk) arrivals.push({ byte, atMs });
      socket.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    arrivals,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A delay relay, wherever it runs: its slow and restore are done once they resolve. */
interface AnyDelayRelay {
  port: number;
  slow(slowdown: Slowdown): void | Promise<void>;
  restore(): void | Promise<void>;
  close(): Promise<void>;
}
type StartRelay = (listenHost: string, target: { host: string; port: number }) => Promise<AnyDelayRelay>;

async function relayedEcho(
  start: StartRelay,
): Promise<{ relay: AnyDelayRelay; client: net.Socket; echo: Awaited<ReturnType<typeof echoServer>> }> {
  const echo = await echoServer();
  const relay = await start('127.0.0.1', { host: '127.0.0.1', port: echo.port });
  const client = net.connect(relay.port, '127.0.0.1');
  client.setNoDelay(true);
  await new Promise<void>((resolve) => client.once('connect', resolve));
  closing.push(echo.close, relay.close, async () => void client.destroy());
  return { relay, client, echo };
}

describe.each([
  ['in this process', (host: string, target: { host: string; port: number }) => startDelayRelay(host, target)],
  ['in the relay host', startHostedDelayRelay],
] as Array<[string, StartRelay]>)('a delay relay %s', (_where, start) => {
  it('slowed, holds every byte latencyMs each way, in order', async () => {
    const { relay, client, echo } = await relayedEcho(start);
    await relay.slow({ latencyMs: 150, lossPercent: 0 });
    const back: Array<{ byte: number; atMs: number }> = [];
    client.on('data', (chunk: Buffer) => {
      const atMs = nowMs();
      for (const byte of chunk) back.push({ byte, atMs });
    });
    const sent: number[] = [];
    for (let i = 0; i < 10; i++) {
      sent.push(nowMs());
      client.write(Buffer.from([i]));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await expect.poll(() => back.length, { timeout: 5000 }).toBe(10);
    expect(echo.arrivals.map((a) => a.byte)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(back.map((a) => a.byte)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (let i = 0; i < 10; i++) {
      // Each way, no earlier than 150 ms after it was sent.
      expect(echo.arrivals[i]!.atMs - sent[i]!).toBeGreaterThanOrEqual(150);
      expect(back[i]!.atMs - echo.arrivals[i]!.atMs).toBeGreaterThanOrEqual(150);
    }
  });

  it('restored, passes bytes again, never ahead of those still held', async () => {
    const { relay, client } = await relayedEcho(start);
    const back: number[] = [];
    client.on('data', (chunk: Buffer) => back.push(...chunk));
    await relay.slow({ latencyMs: 300, lossPercent: 0 });
    client.write(Buffer.from([1]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await relay.restore();
    client.write(Buffer.from([2]));
    await expect.poll(() => back, { timeout: 5000 }).toEqual([1, 2]);
    client.write(Buffer.from([3]));
    await expect.poll(() => back, { timeout: 5000 }).toEqual([1, 2, 3]);
  });
});

describe('a delay line', () => {
  it('holds a "lost" chunk a retransmission timeout more, with a seeded random, and what follows it waits behind it', async () => {
    const latencyMs = 50;
    const lossPercent = 30;
    // The same seed gives the same losses: which chunks are lost is known before the run.
    const expectedLost = ((random) => Array.from({ length: 20 }, () => random() * 100 < lossPercent))(seededRandom(7));
    expect(expectedLost.some(Boolean)).toBe(true);
    expect(expectedLost.every(Boolean)).toBe(false);
    const delivered: Array<{ index: number; atMs: number }> = [];
    const line = new DelayLine((chunk) => delivered.push({ index: chunk[0]!, atMs: nowMs() }), seededRandom(7));
    const pushedMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      pushedMs.push(nowMs());
      line.push(Buffer.from([i]), { latencyMs, lossPercent });
    }
    await expect.poll(() => delivered.length, { timeout: 5000 }).toBe(20);
    expect(delivered.map((d) => d.index)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const heldMs = delivered.map((d, i) => d.atMs - pushedMs[i]!);
    expect(Math.min(...heldMs)).toBeGreaterThanOrEqual(latencyMs);
    // Every lost chunk (there are some, above) is held a retransmission timeout more.
    const lostHeldMs = heldMs.filter((_, i) => expectedLost[i]);
    expect(lostHeldMs.length).toBe(expectedLost.filter(Boolean).length);
    expect(Math.min(...lostHeldMs)).toBeGreaterThanOrEqual(latencyMs + RETRANSMISSION_TIMEOUT_MS);
    // Behind the first lost chunk (not the last one), every later one waits for its retransmission.
    const firstLost = expectedLost.indexOf(true);
    expect(firstLost).toBeLessThan(19);
    const behind = delivered.slice(firstLost + 1).map((d) => d.atMs);
    expect(Math.min(...behind)).toBeGreaterThanOrEqual(pushedMs[firstLost]! + latencyMs + RETRANSMISSION_TIMEOUT_MS);
  });

  it('passes a chunk at once when not slowed and nothing is held', () => {
    const delivered: number[] = [];
    const line = new DelayLine(
      (chunk) => delivered.push(chunk[0]!),
      () => 0,
    );
    line.push(Buffer.from([9]), null);
    expect(delivered).toEqual([9]);
  });
});
