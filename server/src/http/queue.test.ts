// The line of run starts, on real sockets in front of a playground on the real stores: a
// server of one slot whose run is held (a 40 s job (10 s of work at quarter speed), cancelled by the test when it wants the
// slot back), so that who waits, in which order and for how long is the test's choice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';
import { connectClient, isEnd, leftovers, until, type TestClient } from '../testing/wsClient.js';
import type { SocketLimits } from './limits.js';
import { FIRST_GUESS_MS } from './waitEstimate.js';

let playground: Playground;
const servers: ServedApp[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  playground = await openTestPlayground(4);
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.socket.close();
  for (const server of servers) await server.close();
  await playground?.close();
});

/** A server of one run slot (unless `limits` says otherwise). */
async function serve(limits: Partial<SocketLimits> = {}): Promise<ServedApp> {
  const served = await serveApp(playground, { limits: { maxRunsPerServer: 1, ...limits } });
  servers.push(served);
  return served;
}

async function page(server: ServedApp): Promise<TestClient> {
  const client = await connectClient(server.url);
  clients.push(client);
  await client.next((m) => m.type === 'hello');
  return client;
}

/** A run that holds its slot until the test cancels it. */
const HELD = { scenario: 'duplicate-job', variant: 'no-lock', params: { workMs: 10_000 }, speed: 0.25 };
const SHORT = { scenario: 'lost-update', variant: 'atomic-update' };

type Queued = Extract<ServerMessage, { type: 'run-queued' }>;

function start(client: TestClient, requestId: string, request: object = SHORT): void {
  client.send({ type: 'start-run', requestId, ...request });
}

/** The next run-queued for `requestId`. */
async function queued(client: TestClient, requestId: string): Promise<Queued> {
  return (await client.next((m) => m.type === 'run-queued' && m.requestId === requestId)) as Queued;
}

function accepted(client: TestClient, requestId: string, timeoutMs = 30_000): Promise<ServerMessage> {
  return client.next((m) => m.type === 'run-accepted' && m.requestId === requestId, timeoutMs);
}

/** Cancels a held run and waits for its end: its slot frees once it has cleaned up. */
async function release(client: TestClient, runId: string): Promise<void> {
  client.send({ type: 'cancel-run', runId });
  await client.next(isEnd(runId));
}

async function readiness(server: ServedApp): Promise<{ status: number; reasons: string[] }> {
  const response = await fetch(`http://127.0.0.1:${server.port}/readyz`);
  return { status: response.status, reasons: ((await response.json()) as { reasons: string[] }).reasons };
}

async function metric(server: ServedApp, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe('a start that finds every slot taken', () => {
  it('waits in line with its position and an estimate, and moves up as runs finish', async () => {
    const server = await serve();
    const [a, b, c] = [await page(server), await page(server), await page(server)];
    const held = await a.startRun({ ...HELD, requestId: 'a' });
    start(b, 'b', HELD);
    const first = await queued(b, 'b');
    expect(first).toMatchObject({ position: 1 });
    // Nothing has ended here yet: the slot is guessed to free FIRST_GUESS_MS after the run took it.
    expect(first.estimateMs).toBeGreaterThan(0);
    expect(first.estimateMs).toBeLessThanOrEqual(FIRST_GUESS_MS);
    start(c, 'c');
    const second = await queued(c, 'c');
    expect(second.position).toBe(2);
    // One more run of the mean after the first in line.
    expect(second.estimateMs).toBeGreaterThanOrEqual(first.estimateMs + FIRST_GUESS_MS - 1000);
    expect(await metric(server, 'racelab_runs_queued')).toBe(2);

    await release(a, held.runId);
    const bRun = (await accepted(b, 'b')) as { runId: string };
    const moved = await queued(c, 'c');
    expect(moved.position).toBe(1);
    expect(await metric(server, 'racelab_runs_queued')).toBe(1);
    expect(await metric(server, 'racelab_queue_wait_seconds_count')).toBe(1);
    await release(b, bRun.runId);
    const cRun = (await accepted(c, 'c')) as { runId: string };
    const end = await c.next(isEnd(cRun.runId));
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('pass');
    await server.app.sockets.directory.get(cRun.runId)!.settled;
    expect(await leftovers(playground.redis, playground.pg, cRun.runId)).toEqual({ keys: [], schema: false });
    expect(await metric(server, 'racelab_queue_wait_seconds_count')).toBe(2);
  }, 90_000);

  it('leaves the line when its page cancels, and the ones behind move up', async () => {
    const server = await serve();
    const [a, b, c] = [await page(server), await page(server), await page(server)];
    const held = await a.startRun({ ...HELD, requestId: 'a' });
    start(b, 'b');
    start(c, 'c');
    expect((await queued(b, 'b')).position).toBe(1);
    expect((await queued(c, 'c')).position).toBe(2);
    b.send({ type: 'cancel-queued', requestId: 'b' });
    await b.next((m) => m.type === 'queue-left' && m.requestId === 'b');
    expect((await queued(c, 'c')).position).toBe(1);
    // A cancel of a start not in line says so.
    b.send({ type: 'cancel-queued', requestId: 'b' });
    expect(await b.next((m) => m.type === 'error')).toMatchObject({ error: "no start 'b' of this page waits in line" });
    await release(a, held.runId);
    await accepted(c, 'c');
    // The cancelled one never ran.
    expect(b.inbox.some((m) => m.type === 'run-accepted')).toBe(false);
  }, 90_000);

  it('serves pages in turn: a page with two starts in line does not go twice before another page goes once', async () => {
    const server = await serve();
    const [holder, greedy, other] = [await page(server), await page(server), await page(server)];
    const held = await holder.startRun({ ...HELD, requestId: 'h' });
    start(greedy, 'g1', HELD);
    start(greedy, 'g2', HELD);
    expect((await queued(greedy, 'g1')).position).toBe(1);
    expect((await queued(greedy, 'g2')).position).toBe(2);
    start(other, 'o1', HELD);
    // The other page's start goes before the greedy page's second.
    expect((await queued(other, 'o1')).position).toBe(2);
    expect((await queued(greedy, 'g2')).position).toBe(3);
    // Its share is two, going or in line.
    start(greedy, 'g3');
    const refused = await greedy.next((m) => m.type === 'run-rejected' && m.requestId === 'g3');
    expect(refused).toMatchObject({ error: expect.stringMatching(/^busy: this page already has 2 runs going or in line/) });

    await release(holder, held.runId);
    const g1 = (await accepted(greedy, 'g1')) as { runId: string };
    await release(greedy, g1.runId);
    const o1 = (await accepted(other, 'o1')) as { runId: string };
    expect(greedy.inbox.some((m) => m.type === 'run-accepted' && m.requestId === 'g2')).toBe(false);
    await release(other, o1.runId);
    const g2 = (await accepted(greedy, 'g2')) as { runId: string };
    await release(greedy, g2.runId);
  }, 120_000);

  it('keeps its place while its page reconnects, and tells the page its position again', async () => {
    const server = await serve({ queueGraceMs: 10_000 });
    const [a, b, c] = [await page(server), await page(server), await page(server)];
    const held = await a.startRun({ ...HELD, requestId: 'a' });
    start(b, 'b');
    const { queueKey } = await queued(b, 'b');
    b.socket.close();
    await b.closed;
    // While the page is away its place is kept: a later start is behind it.
    start(c, 'c');
    expect((await queued(c, 'c')).position).toBe(2);
    const back = await page(server);
    back.send({ type: 'rejoin-queue', requestId: 'b', queueKey: 'f'.repeat(32) });
    expect(await back.next((m) => m.type === 'run-rejected' && m.requestId === 'b')).toMatchObject({
      error: expect.stringMatching(/^the place in line was not kept/),
    });
    back.send({ type: 'rejoin-queue', requestId: 'b', queueKey });
    expect(await queued(back, 'b')).toMatchObject({ position: 1, queueKey });
    await release(a, held.runId);
    const bRun = (await accepted(back, 'b')) as { runId: string };
    await back.next(isEnd(bRun.runId));
    await accepted(c, 'c');
  }, 90_000);

  it('lets a place lapse when its page stays away past the grace period', async () => {
    const server = await serve({ queueGraceMs: 300 });
    const [a, b] = [await page(server), await page(server)];
    const held = await a.startRun({ ...HELD, requestId: 'a' });
    start(b, 'b');
    const { queueKey } = await queued(b, 'b');
    b.socket.close();
    await until(() => server.app.sockets.desk.length === 0, 'the place lapsed', 5000);
    const back = await page(server);
    back.send({ type: 'rejoin-queue', requestId: 'b', queueKey });
    await back.next((m) => m.type === 'run-rejected' && m.requestId === 'b');
    await release(a, held.runId);
  }, 60_000);

  it('answers "busy" past the bound of the line, with a time to try again', async () => {
    const server = await serve({ maxQueuedPerServer: 2 });
    const [a, b, c, d] = [await page(server), await page(server), await page(server), await page(server)];
    const held = await a.startRun({ ...HELD, requestId: 'a' });
    start(b, 'b');
    start(c, 'c');
    await queued(b, 'b');
    await queued(c, 'c');
    start(d, 'd');
    const refused = await d.next((m) => m.type === 'run-rejected' && m.requestId === 'd');
    expect(refused).toMatchObject({
      error: 'busy: the line is full: 2 starts wait for a slot, the most this server keeps; try again in a moment',
      retryAfterMs: 1000,
    });
    await release(a, held.runId);
    await accepted(b, 'b');
  }, 60_000);

  it('makes the server not ready once every slot is taken and the line is long enough, and ready again after', async () => {
    const server = await serve({ queuedWhenNotReady: 1 });
    const [a, b] = [await page(server), await page(server)];
    const held = await a.startRun({ ...HELD, requestId: 'a' });
    // Every slot taken, nobody in line: still ready, a new page would only wait in line.
    expect((await readiness(server)).status).toBe(200);
    start(b, 'b', HELD);
    await queued(b, 'b');
    expect(await readiness(server)).toEqual({ status: 503, reasons: ['every run slot taken (1 of 1) and 1 starts in line'] });
    // /healthz stays 200: the process serves.
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    b.send({ type: 'cancel-queued', requestId: 'b' });
    await b.next((m) => m.type === 'queue-left');
    expect((await readiness(server)).status).toBe(200);
    await release(a, held.runId);
  }, 60_000);
});
