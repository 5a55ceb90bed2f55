// Hostile and odd input on a real port against the real stores: every bad message gets a
// clear error and the connection carries on; floods are answered "slow down"; a client
// that never reads is cut off; the caps answer "busy"; foreign pages and host names are
// refused; and no page can send SQL, Lua, keys or paths.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { connectClient, isEnd, isEvent, leftovers, until, type TestClient } from '../testing/wsClient.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';
import type { AppServerOptions } from './appServer.js';
import { MAX_RUN_MS } from '../runs/playground.js';
import { sendBounded } from './boundedSend.js';
import { DEFAULT_LIMITS, TOO_MANY_MESSAGES } from './limits.js';
import { TokenBucket } from './tokenBucket.js';

let playground: Playground;
const servers: ServedApp[] = [];

async function serve(options: AppServerOptions = {}): Promise<ServedApp> {
  const served = await serveApp(playground, options);
  servers.push(served);
  return served;
}

let main: ServedApp;

beforeAll(async () => {
  playground = await openTestPlayground();
  main = await serve();
});
afterAll(async () => {
  for (const served of servers) await served.close();
  await playground.close();
});

async function client(url = main.url): Promise<TestClient> {
  const c = await connectClient(url);
  await c.next((m) => m.type === 'hello');
  return c;
}

const start = (extra: Record<string, unknown> = {}) => ({
  type: 'start-run',
  requestId: 'r',
  scenario: 'duplicate-job',
  variant: 'no-lock',
  ...extra,
});

describe('bad input', () => {
  it.each([
    [
      'an unknown type',
      { type: 'drop-tables' },
      "invalid message at 'type': Invalid discriminator value. Expected 'start-run' | 'cancel-run' | 'cancel-queued' | 'rejoin-queue' | 'subscribe' | 'fault'",
    ],
    [
      'a missing field',
      { type: 'start-run', requestId: 'r', scenario: 'duplicate-job' },
      "invalid message at 'variant': Invalid input: expected string, received undefined",
    ],
    ['a wrong type', { type: 'cancel-run', runId: 5 }, "invalid message at 'runId': Invalid input: expected string, received number"],
    [
      'a non-integer seq',
      { type: 'subscribe', runId: 'x', afterSeq: 1.5 },
      "invalid message at 'afterSeq': Invalid input: expected int, received number",
    ],
    ['a speed out of range', start({ speed: 100 }), "invalid message at 'speed': Too big: expected number to be <=2"],
    [
      'too many faults',
      start({ faults: Array.from({ length: 21 }, () => ({ checkpoint: 'x', target: 'first', action: 'kill' })) }),
      "invalid message at 'faults': Too big: expected array to have <=20 items",
    ],
    [
      'a nested parameter',
      start({ params: { workers: [[[[1]]]] } }),
      "invalid message at 'params.workers': a parameter is a number, a string or a list of them",
    ],
    ['SQL in a field of its own', start({ sql: 'drop schema public cascade' }), 'invalid message: Unrecognized key: "sql"'],
    ['a Lua script', start({ lua: "redis.call('FLUSHALL')" }), 'invalid message: Unrecognized key: "lua"'],
    [
      'a Redis key and a path',
      { type: 'subscribe', runId: 'x', key: 'racelab:*', path: '/etc/passwd' },
      'invalid message: Unrecognized keys: "key", "path"',
    ],
    ['JSON that is not an object', [1, 2], 'invalid message: Invalid input: expected object, received array'],
  ])('answers %s with a clear error', async (_what, message, error) => {
    const c = await client();
    c.send(message);
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', error });
    c.socket.close();
  });

  it.each([
    ['an out-of-range parameter', start({ params: { workers: 21 } }), "parameter 'workers' must be an integer from 1 to 20, got 21"],
    [
      'a parameter of the wrong kind',
      start({ params: { workers: 'many' } }),
      "parameter 'workers' must be an integer from 1 to 20, got many",
    ],
    [
      'SQL as a parameter value',
      start({ params: { arrival: "together'; drop table emails; --" } }),
      "parameter 'arrival' must be one of together, late, got together'; drop table emails; --",
    ],
    [
      'an unknown parameter',
      start({ params: { keyPrefix: 'racelab:' } }),
      "unknown parameter 'keyPrefix' for duplicate-job; known: workers, workMs, leaseMs, arrival, failure",
    ],
    ['an unknown scenario', start({ scenario: '../../etc/passwd' }), "unknown scenario '../../etc/passwd'; known: "],
    ['an unknown variant', start({ variant: 'flushall' }), "unknown variant 'flushall' of duplicate-job; known: "],
    [
      'an unknown checkpoint',
      start({ faults: [{ checkpoint: 'anywhere', target: 'first', action: 'kill' }] }),
      "unknown checkpoint 'anywhere' of no-lock; known: report-sent",
    ],
  ])('rejects %s with the words the CLI uses', async (_what, message, error) => {
    const c = await client();
    c.send(message);
    const rejected = await c.next((m) => m.type === 'run-rejected');
    expect(rejected.type === 'run-rejected' && rejected.error.startsWith(error)).toBe(true);
    c.socket.close();
  });

  it('answers invalid UTF-8, a binary frame and broken JSON, then serves the same connection', async () => {
    const c = await client();
    c.socket.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false });
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'message is not valid UTF-8 text' });
    c.socket.send(Buffer.from([0xc0, 0xaf]), { binary: false }); // an overlong encoding of '/'
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'message is not valid UTF-8 text' });
    c.socket.send(Buffer.from('{"type":"subscribe"}'), { binary: true });
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'binary frames are not accepted; send JSON text' });
    c.socket.send('{"type":"subscribe",');
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', error: 'message is not valid JSON' });
    c.send({ type: 'start-run', requestId: 'ok', scenario: 'duplicate-job', variant: 'token-lua' });
    const end = await c.next(isEnd());
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('pass');
    c.socket.close();
  });

  it('answers a flood with "too many messages: slow down", keeps the connection and serves everyone else meanwhile', async () => {
    const flooder = await client();
    const other = await client();
    const frames = 3000;
    for (let i = 0; i < frames; i++) flooder.send({ type: 'subscribe', runId: `flood${i}` });
    other.send({ type: 'subscribe', runId: 'other' });
    expect(await other.next((m) => m.type === 'run-unknown')).toEqual({ type: 'run-unknown', runId: 'other' });
    // Every frame gets its answer: the burst is served, the excess is told to slow down.
    await until(() => flooder.inbox.length >= frames, 'every flooded frame answered');
    const served = flooder.inbox.filter((m) => m.type === 'run-unknown').length;
    const slowed = flooder.inbox.filter((m) => m.type === 'error' && m.error === TOO_MANY_MESSAGES).length;
    expect(served + slowed).toBe(frames);
    expect(served).toBeGreaterThanOrEqual(DEFAULT_LIMITS.messageBurst);
    expect(slowed).toBeGreaterThan(0);
    flooder.inbox.length = 0;
    // Once it slows down it is served again, on the same connection.
    await until(
      async () => {
        flooder.send({ type: 'subscribe', runId: 'calm' });
        const answer = await flooder.next((m) => m.type === 'run-unknown' || m.type === 'error');
        return answer.type === 'run-unknown';
      },
      'served again after the flood',
      5000,
      100,
    );
    flooder.socket.close();
    other.socket.close();
  });

  it('the token bucket lets a burst through, then the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 5, () => now);
    expect(Array.from({ length: 6 }, () => bucket.take())).toEqual([true, true, true, true, true, false]);
    now += 100; // 0.1 s at 10 a second: one more
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now += 10_000; // never more than the burst
    expect(Array.from({ length: 6 }, () => bucket.take()).filter(Boolean)).toHaveLength(5);
  });
});

describe('slow clients', () => {
  it('never buffers more than the limit for a client: past it the client is cut off', () => {
    const sent: string[] = [];
    let terminated = false;
    const socket = { readyState: 1, OPEN: 1, bufferedAmount: 0, send: (d: string) => sent.push(d), terminate: () => (terminated = true) };
    expect(sendBounded(socket, { type: 'error', error: 'a' }, 1000)).toBe(true);
    socket.bufferedAmount = 1001;
    expect(sendBounded(socket, { type: 'error', error: 'b' }, 1000)).toBe(false);
    expect(terminated).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('cuts off a real client that stops reading, and keeps serving the others', async () => {
    const { app, url } = await serve({ limits: { maxBufferedBytes: 256 * 1024, messagesPerSecond: 1e9, messageBurst: 1e9 } });
    const reader = await client(url);
    const stalled = await client(url);
    stalled.socket.pause(); // stops reading its TCP socket: the server's replies pile up
    // Each frame is answered with an error of ~100 bytes; the kernel's buffers take a few MB.
    for (let batch = 0; batch < 100 && app.sockets.connections === 2; batch++) {
      for (let i = 0; i < 5000; i++) stalled.socket.send('{}');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await until(() => app.sockets.connections === 1, 'the stalled client cut off');
    reader.send({ type: 'subscribe', runId: 'still-here' });
    expect(await reader.next((m) => m.type === 'run-unknown')).toEqual({ type: 'run-unknown', runId: 'still-here' });
    stalled.socket.resume();
    await stalled.closed;
    reader.socket.close();
  });
});

describe('caps', () => {
  it('takes two runs per page and twelve per server: a third of one page is "busy", a thirteenth of the server waits in line', async () => {
    const long = { type: 'start-run', scenario: 'duplicate-job', variant: 'token-lua', params: { workers: 1, workMs: 10_000 } };
    const pages = await Promise.all(Array.from({ length: 7 }, () => client()));
    const runIds: string[] = [];
    for (const [i, page] of pages.slice(0, 6).entries()) {
      for (const n of [1, 2]) {
        page.send({ ...long, requestId: `p${i}r${n}` });
        const accepted = await page.next((m) => m.type === 'run-accepted' || m.type === 'run-rejected');
        expect(accepted.type).toBe('run-accepted');
        if (accepted.type === 'run-accepted') runIds.push(accepted.runId);
      }
      if (i === 0) {
        page.send({ ...long, requestId: 'third' });
        expect(await page.next((m) => m.type === 'run-rejected')).toEqual({
          type: 'run-rejected',
          requestId: 'third',
          error: 'busy: this page already has 2 runs going or in line, the most one page may have; try again when one ends',
          retryAfterMs: 1000,
        });
      }
    }
    // The thirteenth start waits in line (queue.test.ts follows a line through): first in it.
    pages[6]!.send({ type: 'start-run', requestId: 'thirteenth', scenario: 'duplicate-job', variant: 'token-lua' });
    expect(await pages[6]!.next((m) => m.type === 'run-queued' || m.type === 'run-rejected')).toMatchObject({
      type: 'run-queued',
      requestId: 'thirteenth',
      position: 1,
    });
    for (const [i, page] of pages.slice(0, 6).entries()) {
      for (const runId of runIds.slice(2 * i, 2 * i + 2)) page.send({ type: 'cancel-run', runId });
    }
    for (const runId of runIds) await main.app.sockets.directory.get(runId)!.settled;
    for (const runId of runIds) expect(await leftovers(playground.redis, playground.pg, runId)).toEqual({ keys: [], schema: false });
    // With the runs gone, the thirteenth page's start leaves the line and runs.
    const end = await pages[6]!.next(isEnd());
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('pass');
    for (const page of pages) page.socket.close();
  });

  it('caps the runs of one network address, whatever number of pages it opens', async () => {
    // Loopback is this machine's own user and is trusted by default; here it stands for a visitor.
    const { url, app } = await serve({ limits: { maxRunsPerAddress: 3, isTrustedAddress: () => false } });
    const [first, second] = [await client(url), await client(url)];
    const long = { scenario: 'duplicate-job', variant: 'token-lua', params: { workMs: 10_000 } };
    const runIds: string[] = [];
    for (const [page, requestId] of [
      [first, 'a'],
      [first, 'b'],
      [second, 'c'],
    ] as const) {
      runIds.push((await page.startRun({ requestId, ...long })).runId);
    }
    second.send({ type: 'start-run', requestId: 'd', ...long });
    expect(await second.next((m) => m.type === 'run-rejected')).toEqual({
      type: 'run-rejected',
      requestId: 'd',
      error: 'busy: the pages of this address already have 3 runs going or in line, the most one address may have; try again when one ends',
      retryAfterMs: 1000,
    });
    first.send({ type: 'cancel-run', runId: runIds[0] });
    first.send({ type: 'cancel-run', runId: runIds[1] });
    second.send({ type: 'cancel-run', runId: runIds[2] });
    for (const runId of runIds) await app.sockets.directory.get(runId)!.settled;
    first.socket.close();
    second.socket.close();
  });

  it('ends any run after five minutes at most, whatever its parameters', () => {
    // token-stampede's worst case at its bounds (20 waves a minute apart, 5,000 requests one refresh after another): hours.
    const prepared = playground.prepare({
      scenario: 'token-stampede',
      variant: 'lock-only',
      params: { requests: 5000, waves: 20, waveGapMs: 60_000 },
    });
    expect(prepared.ok && prepared.run.deadlineMs).toBe(MAX_RUN_MS);
    expect(MAX_RUN_MS).toBe(5 * 60_000);
    const usual = playground.prepare({ scenario: 'duplicate-job', variant: 'no-lock', params: {} });
    expect(usual.ok && usual.run.deadlineMs).toBeLessThan(MAX_RUN_MS);
  });

  it('caps the worker processes of the whole server: a run that needs more waits in line until they are free', async () => {
    const { url, app } = await serve({ limits: { maxWorkersPerServer: 5 } });
    const c = await client(url);
    const { runId } = await c.startRun({
      requestId: 'a',
      scenario: 'duplicate-job',
      variant: 'token-lua',
      params: { workers: 4, workMs: 10_000 },
    });
    c.send({ type: 'start-run', requestId: 'b', scenario: 'duplicate-job', variant: 'token-lua', params: { workers: 2 } });
    expect(await c.next((m) => m.type === 'run-queued' || m.type === 'run-rejected')).toMatchObject({
      type: 'run-queued',
      requestId: 'b',
      position: 1,
    });
    expect(app.sockets.directory.workers).toBe(4);
    c.send({ type: 'cancel-run', runId });
    expect(await c.next(isEvent('run-failed'))).toMatchObject({ event: { message: 'cancelled from the page' } });
    const accepted = await c.next((m) => m.type === 'run-accepted' && m.requestId === 'b');
    const end = await c.next(isEnd(accepted.type === 'run-accepted' ? accepted.runId : 'none'));
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('pass');
    c.socket.close();
  });
});

describe('who gets in', () => {
  const get = (port: number, path: string, host?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers: host ? { host } : {} }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  it.each([
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['a foreign port on the same host', { origin: 'http://127.0.0.1:1' }],
    ["the 'null' Origin of a sandboxed page", { origin: 'null' }],
    ['an Origin that is not a URL', { origin: 'http://[' }],
    ['a rebinding host name', { origin: 'http://evil.example:80', headers: { host: 'evil.example:80' } }],
  ])('refuses an upgrade from %s, and keeps serving', async (_what, options) => {
    await expect(connectClient(main.url, options)).rejects.toThrow(/403/);
    const c = await client();
    c.socket.close();
  });

  it('takes host names it was told to allow', async () => {
    const { port } = await serve({ allowedHosts: ['racelab.local'] });
    const c = await connectClient(`ws://127.0.0.1:${port}/ws`, {
      origin: `http://racelab.local:${port}`,
      headers: { host: `racelab.local:${port}` },
    });
    await c.next((m) => m.type === 'hello');
    c.socket.close();
  });

  it('answers odd HTTP without falling over', async () => {
    expect(await get(main.port, '/%E0%A4%A')).toBe(400); // malformed percent-encoding
    expect(await get(main.port, '/..%2f..%2fetc%2fpasswd')).toBe(403);
    expect(await get(main.port, '/api/catalog', 'evil.example')).toBe(403);
    expect(await get(main.port, '/api/catalog')).toBe(200);
  });

  it('never sends a connection string or password to a page', async () => {
    const c = await connectClient(main.url);
    const hello = JSON.stringify(await c.next((m) => m.type === 'hello'));
    expect(hello).not.toMatch(/redis:\/\/|postgres(ql)?:\/\//);
    c.socket.close();
  });
});
