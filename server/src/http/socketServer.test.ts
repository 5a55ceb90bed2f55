// The page's socket on a real port against the real stores: runs stream to the verdict,
// bad input gets a clear error and the connection carries on, foreign pages are refused.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunEvent, ServerMessage } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { createAppServer, type AppServer } from './appServer.js';

let playground: Playground;
let app: AppServer;
let url: string;

beforeAll(async () => {
  playground = await openTestPlayground();
  app = createAppServer(playground, '/nonexistent');
  await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(app.http.address() as AddressInfo).port}/ws`;
});
afterAll(async () => {
  await app.sockets.close('test over');
  app.http.close();
  await playground.close();
});

/** A client that keeps every message and lets a test wait for one. */
async function connect(origin?: string) {
  const socket = new WebSocket(url, origin ? { origin } : {});
  const inbox: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()) as ServerMessage);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = async (match: (m: ServerMessage) => boolean): Promise<ServerMessage> => {
    for (;;) {
      const found = inbox.find(match);
      if (found) {
        inbox.splice(inbox.indexOf(found), 1);
        return found;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { socket, inbox, next };
}

describe('socket server', () => {
  it('greets with the catalog and streams a run to its verdict', async () => {
    const client = await connect();
    const hello = await client.next((m) => m.type === 'hello');
    expect(hello.type === 'hello' && hello.catalog.map((s) => s.id)).toContain('duplicate-job');

    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r1', scenario: 'duplicate-job', variant: 'no-lock', params: { workers: '4' } }));
    const accepted = await client.next((m) => m.type === 'run-accepted');
    const finished = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    const event = (finished as { event: RunEvent }).event;
    expect(event.type === 'run-finished' && event.metrics.emailsSent).toBe(4);
    const runEvents = client.inbox.filter((m) => m.type === 'run-event' && accepted.type === 'run-accepted' && m.runId === accepted.runId);
    // Numbered in order with nothing missing.
    const seqs = runEvents.map((m) => (m as { event: RunEvent }).event.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    client.socket.close();
  });

  it('answers bad input with a clear error and keeps the connection', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send('{not json');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'message is not valid JSON' });
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next((m) => m.type === 'error')).toMatchObject({ error: expect.stringContaining('binary') });
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r2', scenario: 'duplicate-job', variant: 'no-lock', params: { workers: 999 } }));
    expect(await client.next((m) => m.type === 'run-rejected')).toEqual({
      type: 'run-rejected',
      requestId: 'r2',
      error: "parameter 'workers' must be an integer from 1 to 20, got 999",
    });
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r3', scenario: 'nope', variant: 'x' }));
    expect(await client.next((m) => m.type === 'run-rejected')).toMatchObject({ error: expect.stringContaining("unknown scenario 'nope'") });
    // Still serving on the same connection.
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r4', scenario: 'duplicate-job', variant: 'token-lua' }));
    const finished = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    expect(finished.type === 'run-event' && finished.event.type === 'run-finished' && finished.event.verdict).toBe('pass');
    client.socket.close();
  });

  it('closes a connection that sends an oversized frame, and serves the next one', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const closed = new Promise<number>((resolve) => client.socket.once('close', resolve));
    client.socket.send('x'.repeat(70 * 1024));
    expect(await closed).toBe(1009); // "message too big"
    const again = await connect();
    await again.next((m) => m.type === 'hello');
    again.socket.close();
  });

  it('refuses an upgrade from a foreign origin', async () => {
    await expect(connect('http://evil.example')).rejects.toThrow(/403/);
  });
});
