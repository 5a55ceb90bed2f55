// The room view on real ports, in front of two playgrounds on the real Redis and PostgreSQL,
// each test in a room of its own (a fresh key prefix): the token is asked for and compared
// as documented, real runs are counted by scenario and verdict, two servers sharing the
// stores both appear and their figures add up, a server that stops or dies drops out, and a
// reset starts the counters again.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys } from '../runs/deleteKeys.js';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground, play } from '../testing/testPlayground.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';
import { connectClient, isEnd, until, type TestClient } from '../testing/wsClient.js';
import type { RoomSnapshot } from './room.js';
import { ROOM_OFF } from './roomRoutes.js';

const TOKEN = 'a-room-token-of-the-tests';

let first: Playground;
let second: Playground;
/** What each test opened, closed after it whatever happened. */
const opened: Array<{ close(): unknown }> = [];
let prefix = '';

beforeAll(async () => {
  [first, second] = await Promise.all([openTestPlayground(1), openTestPlayground(1)]);
}, 60_000);
afterAll(async () => {
  await first?.close();
  await second?.close();
});
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  if (prefix) await deleteKeys(first.redis, `${prefix}*`);
  prefix = '';
});

/** A server in this test's room (its own key prefix), writing its figures every 200 ms. */
async function roomServer(playground: Playground, serverId: string, ttlMs = 2000): Promise<ServedApp> {
  prefix ||= `racelab:roomtest-${randomBytes(4).toString('hex')}:`;
  const served = await serveApp(playground, { room: { token: TOKEN, keyPrefix: prefix, serverId, everyMs: 200, ttlMs } });
  opened.push(served);
  return served;
}

async function client(app: ServedApp): Promise<TestClient> {
  const page = await connectClient(app.url);
  opened.push({ close: () => page.socket.close() });
  return page;
}

function fetchFrom(app: ServedApp, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${app.port}${path}`, init);
}

async function room(app: ServedApp): Promise<RoomSnapshot> {
  const response = await fetchFrom(app, '/api/room', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as RoomSnapshot;
}

/** Waits until the room, as `app` reads it, satisfies `test`, and returns that reading. */
async function roomWhen(app: ServedApp, what: string, test: (r: RoomSnapshot) => boolean): Promise<RoomSnapshot> {
  let last: RoomSnapshot | undefined;
  await until(async () => test((last = await room(app))), what, 15_000, 100);
  return last!;
}

describe('the token', () => {
  it('turns the view off without one, saying how to turn it on, and writes nothing to Redis', async () => {
    const app = await serveApp(first);
    opened.push(app);
    for (const [path, method] of [
      ['/room', 'GET'],
      ['/api/room', 'GET'],
      ['/room.js', 'GET'],
      ['/api/room/reset', 'POST'],
    ] as const) {
      const response = await fetchFrom(app, `${path}?token=${TOKEN}`, { method });
      expect(response.status, path).toBe(404);
      expect(await response.text()).toBe(ROOM_OFF);
    }
    expect(app.app.room).toBeNull();
  });

  it('refuses a missing or wrong token with 401, and takes the right one as ?token= or a Bearer header', async () => {
    const app = await roomServer(first, 'alone');
    expect((await fetchFrom(app, '/api/room')).status).toBe(401);
    expect((await fetchFrom(app, '/room')).status).toBe(401);
    expect((await fetchFrom(app, '/api/room?token=wrong')).status).toBe(401);
    expect((await fetchFrom(app, `/api/room?token=${TOKEN}x`)).status).toBe(401);
    expect((await fetchFrom(app, '/api/room', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetchFrom(app, '/api/room/reset', { method: 'POST' })).status).toBe(401);
    const unauthorized = await fetchFrom(app, '/api/room');
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);

    expect((await fetchFrom(app, `/api/room?token=${TOKEN}`)).status).toBe(200);
    expect((await fetchFrom(app, '/api/room', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const page = await fetchFrom(app, `/room?token=${encodeURIComponent(TOKEN)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="room.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // The script and style hold no figures: served without the token, as the page's tags ask for them.
    expect((await fetchFrom(app, '/room.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetchFrom(app, '/room.css')).status).toBe(200);
    expect((await fetchFrom(app, `/api/room?token=${TOKEN}`, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('the figures', () => {
  it('counts connections, a run going, and real runs finished by scenario and verdict', async () => {
    const app = await roomServer(first, 'counting');
    const page = await client(app);
    const empty = await roomWhen(app, 'the server appears with its page', (r) => r.totals.connected === 1);
    expect(empty.servers).toEqual([
      { id: 'counting', connected: 1, running: 0, waiting: 0, slots: 12, ready: expect.any(Boolean), seenMsAgo: expect.any(Number) },
    ]);
    expect(empty.scenarios).toEqual([]);
    expect(Date.parse(empty.since!)).toBeGreaterThan(Date.now() - 60_000);

    const long = await page.startRun({ scenario: 'duplicate-job', variant: 'no-lock', params: { workMs: 10_000 } });
    await roomWhen(app, 'the run shows as running', (r) => r.totals.running === 1 && r.servers[0]!.running === 1);
    page.send({ type: 'cancel-run', runId: long.runId });
    await page.next(isEnd(long.runId));

    const short = await page.startRun({ scenario: 'duplicate-job', variant: 'no-lock', requestId: 's' });
    const end = await page.next(isEnd(short.runId));
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('fail');
    // A near-miss at its defaults, played outside any page: every run the playground makes counts.
    const mutant = await play(first, 'duplicate-job', 'token-lua-plain-del', {}, undefined, { mutants: true });
    const finished = mutant.events.find((e) => e.type === 'run-finished');
    const unexpected = finished?.type === 'run-finished' && finished.verdict !== finished.expectedVerdict ? 1 : 0;
    const mutantVerdict = finished?.type === 'run-finished' ? finished.verdict : 'failed';

    const counted = await roomWhen(app, 'three runs counted', (r) => r.scenarios[0]?.runs === 3 && r.totals.running === 0);
    const byVerdict = { pass: 0, fail: 1, failed: 1 };
    byVerdict[mutantVerdict] += 1;
    expect(counted.scenarios).toEqual([{ scenario: 'duplicate-job', runs: 3, byVerdict, unexpected }]);
  }, 90_000);

  it('shows every server sharing the stores, adds their figures up, and drops one that stops', async () => {
    const one = await roomServer(first, 'server-one');
    const two = await roomServer(second, 'server-two');
    await client(one);
    await client(two);
    await client(two);
    // Either server answers for the whole room.
    for (const app of [one, two]) {
      const both = await roomWhen(app, 'both servers with their pages', (r) => r.totals.connected === 3);
      expect(both.servers.map((s) => [s.id, s.connected])).toEqual([
        ['server-one', 1],
        ['server-two', 2],
      ]);
      expect(both.totals).toEqual({ connected: 3, running: 0, waiting: 0 });
      for (const server of both.servers) expect(server.seenMsAgo).toBeLessThan(1000);
    }
    await two.close();
    const left = await room(one);
    expect(left.servers.map((s) => s.id)).toEqual(['server-one']);
    expect(left.totals.connected).toBe(1);
  }, 60_000);

  it('drops a server that dies without a word once its figures expire', async () => {
    const app = await roomServer(first, 'survivor');
    // A server that died: its last figures, written with a short TTL, never rewritten.
    const ghost = `${prefix}server:ghost`;
    await first.redis
      .multi()
      .hset(ghost, { connected: 5, running: 2, waiting: 0, slots: 12, ready: 1, ttlMs: 800 })
      .pexpire(ghost, 800)
      .sadd(`${prefix}servers`, 'ghost')
      .exec();
    const haunted = await roomWhen(app, 'the dead server still shows', (r) => r.servers.length === 2);
    expect(haunted.totals.connected).toBe(5);
    expect(haunted.servers.find((s) => s.id === 'ghost')).toMatchObject({ connected: 5, running: 2, ready: true });
    const after = await roomWhen(app, 'the dead server drops out', (r) => r.servers.length === 1);
    expect(after.servers[0]!.id).toBe('survivor');
    expect(after.totals).toEqual({ connected: 0, running: 0, waiting: 0 });
    expect(await first.redis.sismember(`${prefix}servers`, 'ghost')).toBe(0);
  });

  it('starts the counters again on a reset, for a new workshop', async () => {
    const app = await roomServer(first, 'resetting');
    await play(first, 'duplicate-job', 'no-lock');
    const before = await roomWhen(app, 'a run counted', (r) => r.scenarios.length === 1);
    const reset = await fetchFrom(app, `/api/room/reset?token=${TOKEN}`, { method: 'POST' });
    expect(reset.status).toBe(200);
    const { since } = (await reset.json()) as { since: string };
    expect(Date.parse(since)).toBeGreaterThanOrEqual(Date.parse(before.since!));
    const after = await room(app);
    expect(after.scenarios).toEqual([]);
    expect(after.since).toBe(since);
    expect(after.servers.map((s) => s.id)).toEqual(['resetting']);
    expect((await fetchFrom(app, `/api/room/reset?token=${TOKEN}`)).status).toBe(405);
  }, 60_000);
});
