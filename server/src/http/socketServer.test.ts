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

  it('resumes a run after a reconnect, from the last event the page had, to how it really ended', async () => {
    const first = await connect();
    await first.next((m) => m.type === 'hello');
    first.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'blind-del' }));
    const accepted = await first.next((m) => m.type === 'run-accepted');
    const runId = accepted.type === 'run-accepted' ? accepted.runId : '';
    await first.next((m) => m.type === 'run-event' && m.event.type === 'lease-acquired');
    const had = first.inbox.filter((m) => m.type === 'run-event').length;
    first.socket.terminate(); // the socket drops mid-run

    const second = await connect();
    await second.next((m) => m.type === 'hello');
    second.socket.send(JSON.stringify({ type: 'subscribe', runId, afterSeq: had })); // seqs 0..had were received
    const end = await second.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.maxConcurrentHolders).toBe(2);
    const seqs = second.inbox.filter((m) => m.type === 'run-event').map((m) => (m as { event: RunEvent }).event.seq);
    expect(seqs[0]).toBe(had + 1);
    second.socket.send(JSON.stringify({ type: 'subscribe', runId: 'ffffffffff' }));
    expect(await second.next((m) => m.type === 'run-unknown')).toEqual({ type: 'run-unknown', runId: 'ffffffffff' });
    second.socket.close();
  });

  it('cancels a run whose page went away and did not come back', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'token-lua', params: { leaseMs: 60000, arrival: 'late', workMs: 8000 } }));
    const accepted = await client.next((m) => m.type === 'run-accepted');
    const runId = accepted.type === 'run-accepted' ? accepted.runId : '';
    await client.next((m) => m.type === 'run-event' && m.event.type === 'work-started');
    client.socket.close();
    const run = app.sockets.directory.get(runId)!;
    const started = Date.now();
    while (!run.done) await new Promise((r) => setTimeout(r, 20));
    expect(Date.now() - started).toBeLessThan(2000 + 500);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-failed', message: 'the page that started the run went away' });
  });

  it('pauses, resumes and kills a real worker process from the page', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'no-lock', params: { workers: 2, workMs: 1500 } }));
    const accepted = await client.next((m) => m.type === 'run-accepted');
    const runId = accepted.type === 'run-accepted' ? accepted.runId : '';
    await client.next((m) => m.type === 'run-event' && m.event.type === 'work-started');
    const fault = (workerId: string, action: string) => client.socket.send(JSON.stringify({ type: 'fault', runId, workerId, action }));
    fault('worker-1', 'pause');
    const paused = await client.next((m) => m.type === 'run-event' && m.event.type === 'process-paused');
    const pid = app.sockets.directory.get(runId)!.events.find((e) => e.type === 'worker-started' && e.workerId === 'worker-1');
    const { readFileSync } = await import('node:fs');
    const state = () => readFileSync(`/proc/${(pid as { pid: number }).pid}/stat`, 'utf8').split(' ')[2];
    await expect.poll(state, { timeout: 2000 }).toBe('T'); // stopped, for real: the kernel says so
    fault('worker-1', 'pause');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'worker-1 is already paused' });
    fault('worker-1', 'resume');
    await client.next((m) => m.type === 'run-event' && m.event.type === 'process-resumed');
    fault('worker-2', 'kill');
    const end = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    // worker-2 died before its e-mail: only worker-1's was sent.
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.emailsSent).toBe(1);
    expect(paused.type === 'run-event' && paused.event.workerId).toBe('worker-1');
    fault('worker-1', 'kill');
    expect(await client.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'the run has ended' });
    client.socket.close();
  });

  it('plays a run in slow motion with the same verdict', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'blind-del', speed: 0.5 }));
    const end = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    const events = client.inbox.filter((m) => m.type === 'run-event').map((m) => (m as { event: RunEvent }).event);
    const acquired = events.find((e) => e.type === 'lease-acquired');
    expect(acquired && acquired.type === 'lease-acquired' && acquired.ttlMs).toBe(800); // 400 ms at half speed
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics).toMatchObject({ emailsSent: 3, maxConcurrentHolders: 2 });
    client.socket.send(JSON.stringify({ type: 'start-run', requestId: 'x', scenario: 'duplicate-job', variant: 'no-lock', speed: 9 }));
    expect(await client.next((m) => m.type === 'error')).toMatchObject({ error: expect.stringContaining("at 'speed'") });
    client.socket.close();
  });

  it('takes a fault plan of the variant\'s checkpoints and refuses others', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    const start = (requestId: string, faults: unknown) =>
      client.socket.send(JSON.stringify({ type: 'start-run', requestId, scenario: 'duplicate-job', variant: 'token-lua', faults }));
    start('bad', [{ checkpoint: 'between-get-and-del', target: 'first', action: 'kill' }]);
    expect(await client.next((m) => m.type === 'run-rejected')).toMatchObject({ error: "unknown checkpoint 'between-get-and-del' of token-lua; known: working" });
    start('kill', [{ checkpoint: 'working', target: 'first', action: 'kill' }]);
    const end = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished');
    // The holder died mid-work: no e-mail, and its lease is left to expire.
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.emailsSent).toBe(0);
    client.socket.close();
  });

  it('refuses an upgrade from a foreign origin', async () => {
    await expect(connect('http://evil.example')).rejects.toThrow(/403/);
  });
});
