// A server lost in the middle of a workshop, for real: three racelab servers (processes of
// their own) on the real stores behind the real HAProxy, a room of 18 attendees (WebSockets
// speaking the shared protocol as the page does), six on each server. Every page of s2 and
// two of each other server have a run held by its plan: the first worker to send the report
// is stalled there (SIGSTOP) for a minute. (The other pages run theirs after the sweep, a few
// at a time: a room's runs all at once take more PostgreSQL connections than a shared test
// machine has. The held runs fit in the room's connection budget, fixed for the test: 10 runs
// of 4 connections beside the servers' own 3 × 14, so none of them waits in line for connections.)
// s2 is SIGKILLed. Its attendees reconnect through the proxy with the cookie that names s2,
// reach a live server and are told their run was lost with s2; the live servers notice s2
// gone and sweep what it left: its runs' keys, schemas, store users and registry rows, its
// worker processes (the stopped ones too), its lease and its room entry, while the live
// servers' runs stay as they were (the minute of their stall is the window: the kill and the
// sweep take seconds). Then the live runs go on to their normal verdicts, and the lost
// attendees run theirs again to theirs.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, parseServerMessage, type RunEvent, type ServerMessage } from '@racelab/shared';
import { LEASES_KEY, LEASE_PREFIX } from '../debris/serverLease.js';
import { OWNED_DIR } from '../debris/ownedProcesses.js';
import { BUDGET_PREFIX } from '../runs/connectionBudget.js';
import { ROOM_KEY_PREFIX } from '../http/room.js';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { alive, connectClient, isEnd, isEvent, leftovers, until, usersLeft, type TestClient } from '../testing/wsClient.js';
import { AFFINITY_COOKIE } from './haproxyConfig.js';
import { findHaproxy, startWorkshop, type Workshop, type WorkshopServer } from './workshop.js';

const haproxy = findHaproxy();
// Runs and processes under a machine name of this test's own: other test files' sweeps leave them alone.
const hostId = `lost-server-test-${randomBytes(4).toString('hex')}`;
const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 2 });
const ATTENDEES_PER_SERVER = 6;
/** Pages of each live server whose runs go on across the kill and the sweep. */
const HELD_ON_LIVE = 2;
/** Runs started at once after the sweep. */
const AT_ONCE = 6;
// Two workers, a lease that outlives the stall: token-lua passes and no-lock fails, as declared.
const PARAMS = { workers: 2, workMs: 1500, leaseMs: 90_000 };
/** Each room run's plan: the first worker to have sent the report stops there for a minute (the longest stall a plan may ask). */
const HOLD = [{ checkpoint: 'report-sent', target: 'first', action: 'stall', ms: 60_000 }];
let workshop: Workshop;

/** One attendee: a page's socket pinned by its cookie to `server`, and its run, held by its plan. */
interface Attendee {
  server: string;
  variant: string;
  client: TestClient;
  runId: string;
  controlKey: string;
  /** Every event of its run that arrived, in order (the page's log). */
  events: RunEvent[];
  /** The worker stalled at the report. */
  paused: string;
}

const wsUrl = (): string => `${workshop.url.replace('http', 'ws')}ws`;

/** Connects a page with the cookie that names `server`, and keeps its run's events as the page's store would. */
async function connectPage(server: string, events: RunEvent[]): Promise<TestClient> {
  const client = await connectClient(wsUrl(), { headers: { cookie: `${AFFINITY_COOKIE}=${server}` } });
  client.socket.on('message', (data) => {
    const parsed = parseServerMessage((data as Buffer).toString());
    if (parsed.ok) events.push(...eventsOf(parsed.message));
  });
  await client.next((m) => m.type === 'hello');
  return client;
}

/** Starts a run and waits until its plan has stalled a worker at the report: the run is held there for a minute. */
async function attend(server: string, index: number): Promise<Attendee> {
  const events: RunEvent[] = [];
  const client = await connectPage(server, events);
  const variant = index % 2 === 0 ? 'token-lua' : 'no-lock';
  if (server !== 's2' && index >= HELD_ON_LIVE) return { server, variant, client, runId: '', controlKey: '', events, paused: '' };
  const { runId, controlKey } = await client.startRun({ scenario: 'duplicate-job', variant, params: PARAMS, faults: HOLD }, 120_000);
  const stalled = await client.next(isEvent('process-paused', runId), 120_000);
  const paused = stalled.type === 'run-event' ? stalled.event.workerId! : '';
  return { server, variant, client, runId, controlKey, events, paused };
}

const pidsOf = (events: RunEvent[]): number[] => events.flatMap((e) => (e.type === 'worker-started' ? [e.pid] : []));

/** The pids a server recorded as its children (its state file, debris/ownedProcesses.ts). */
function ownedBy(pid: number): number[] {
  const file = path.join(OWNED_DIR, `${pid}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { children: { pid: number }[] }).children.map((c) => c.pid);
}

/** What the registry holds of a server's runs. */
async function registeredOf(pid: number): Promise<string[]> {
  const { rows } = await pool.query<{ run_id: string }>('select run_id from racelab.runs where host = $1 and pid = $2', [hostId, pid]);
  return rows.map((r) => r.run_id);
}

/** The server's room id (host name, pid, random characters) in the room's set. */
async function roomIdOf(pid: number): Promise<string | undefined> {
  return (await redis.smembers(`${ROOM_KEY_PREFIX}servers`)).find((id) => id.includes(`-${pid}-`));
}

async function metric(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${name} `))
      ?.split(' ')[1],
  );
}

/** Waits until the proxy sends a request with `server`'s cookie to that server (its /readyz let it in). */
async function routed(server: WorkshopServer): Promise<void> {
  await until(
    async () => {
      const response = await fetch(`${workshop.url}healthz`, { headers: { cookie: `${AFFINITY_COOKIE}=${server.name}` } });
      await response.text();
      return response.headers.get('x-racelab-server') === server.name;
    },
    `the proxy routes ${server.name}'s cookie to it`,
    120_000,
    250,
  );
}

describe.skipIf(!haproxy)('a server lost in the middle of a workshop', () => {
  const room: Attendee[] = [];
  beforeAll(async () => {
    const env = {
      ...process.env,
      RACELAB_HOST_ID: hostId,
      RACELAB_POOL_SIZE: '2',
      // Every held run of s2 at once, whatever the machine's cores would give.
      RACELAB_RUN_SLOTS: '12',
      // The room's connection budget fixed at what its held runs and its servers need: read
      // from PostgreSQL, it would count the other test files' connections on this shared
      // database against the room, and the held runs would wait in line for them.
      RACELAB_CONNECTION_BUDGET: '90',
      RACELAB_ROOM_TOKEN: randomBytes(16).toString('hex'),
    };
    workshop = await startWorkshop({ servers: 3, haproxy: haproxy!, env, log: () => undefined });
    for (const server of workshop.servers) await routed(server);
  }, 240_000);
  afterAll(async () => {
    for (const attendee of room) attendee.client.socket.terminate();
    await workshop?.stop();
    redis.disconnect();
    await pool.end();
  });

  it('tells its attendees, sweeps what it left, and leaves the others to their verdicts', async () => {
    const names = workshop.servers.map((s) => s.name);
    room.push(...(await Promise.all(names.flatMap((name) => Array.from({ length: ATTENDEES_PER_SERVER }, (_, i) => attend(name, i))))));
    for (const server of workshop.servers) {
      expect(await metric(server.port, 'racelab_websocket_connections')).toBe(ATTENDEES_PER_SERVER);
    }
    const dead = workshop.servers.find((s) => s.name === 's2')!;
    const lost = room.filter((a) => a.server === dead.name);
    const others = room.filter((a) => a.server !== dead.name && a.runId !== '');
    const later = room.filter((a) => a.server !== dead.name && a.runId === '');
    const deadPids = [...ownedBy(dead.pid), ...lost.flatMap((a) => pidsOf(a.events))];
    const roomId = await roomIdOf(dead.pid);
    expect(roomId).toBeDefined();
    expect(await registeredOf(dead.pid)).toEqual(expect.arrayContaining(lost.map((a) => a.runId)));

    const killedAt = performance.now();
    process.kill(dead.pid, 'SIGKILL');
    await Promise.all(lost.map((a) => a.client.closed));
    // The paused workers of s2 cannot see their parent go: they stay, stopped, until a sweep.
    const stopped = lost.flatMap((a) => pidsOf(a.events.filter((e) => e.workerId === a.paused)));
    expect(stopped.filter(alive)).toHaveLength(lost.length);

    const told = await Promise.all(lost.map((a) => reconnect(a)));
    for (const answer of told) expect(answer).toEqual({ type: 'run-lost', runId: expect.any(String), server: 's2' });
    const toldMs = performance.now() - killedAt;

    await sweptAway(dead.pid, lost, deadPids, roomId!);
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      `s2 killed: its ${lost.length} pages told within ${seconds(toldMs)} s, all it left swept within ${seconds(performance.now() - killedAt)} s`,
    );
    await untouched(others);
    await verdicts(others);
    // The live servers' runs settled: their slots are free for the lost attendees' runs.
    for (const server of workshop.servers.filter((s) => s !== dead)) {
      await until(async () => (await metric(server.port, 'racelab_run_slots_taken')) === 0, `${server.name}'s slots free`, 60_000, 250);
    }
    await runAgain([...lost, ...later]);
  }, 420_000);

  /** Reconnects a page of the dead server as the page does (same cookie), asks for its run, and returns the answer. */
  async function reconnect(attendee: Attendee): Promise<ServerMessage> {
    attendee.client = await connectPage(attendee.server, attendee.events);
    const afterSeq = attendee.events.at(-1)?.seq ?? -1;
    attendee.client.send({ type: 'subscribe', runId: attendee.runId, afterSeq, controlKey: attendee.controlKey });
    const isAnswer = (m: ServerMessage) => (m.type === 'run-lost' || m.type === 'run-unknown') && m.runId === attendee.runId;
    return attendee.client.next(isAnswer, 30_000);
  }

  /** Nothing of the dead server is left: registry rows, keys, schemas, users, processes, its lease, its reserved connections, its room entry. */
  async function sweptAway(pid: number, lost: Attendee[], pids: number[], roomId: string): Promise<void> {
    await until(async () => (await registeredOf(pid)).length === 0, "the dead server's runs swept from the registry", 30_000, 100);
    for (const { runId } of lost) {
      expect(await leftovers(redis, pool, runId)).toEqual({ keys: [], schema: false });
      expect(await usersLeft(redis, pool, runId)).toEqual([]);
    }
    await until(() => !pids.some(alive), "the dead server's workers gone", 10_000, 100);
    expect(existsSync(path.join(OWNED_DIR, `${pid}.json`))).toBe(false);
    await until(
      async () => (await redis.keys(`${LEASE_PREFIX}${hostId}:${pid}:*`)).length === 0,
      "the dead server's lease expired",
      15_000,
      250,
    );
    expect((await redis.smembers(LEASES_KEY)).filter((key) => key.includes(`:${pid}:`))).toEqual([]);
    // Its reserved PostgreSQL connections go with its entry, at the next renewal of a live server.
    await until(
      async () => !(await redis.hkeys(`${BUDGET_PREFIX}held`)).some((key) => key.includes(`:${pid}:`)),
      "the dead server's reserved connections given back",
      15_000,
      250,
    );
    await until(async () => (await roomIdOf(pid)) === undefined, "the dead server's room entry dropped", 15_000, 250);
    expect(await redis.exists(`${ROOM_KEY_PREFIX}server:${roomId}`)).toBe(0);
  }

  /** The live servers' runs are as they were: registered, their schemas and workers there, still going. */
  async function untouched(others: Attendee[]): Promise<void> {
    for (const a of others) {
      const last = `${a.server} ${a.variant} ${a.runId}: ${JSON.stringify(a.events.slice(-3))}`;
      expect((await pool.query('select 1 from racelab.runs where run_id = $1', [a.runId])).rowCount, last).toBe(1);
      expect((await leftovers(redis, pool, a.runId)).schema).toBe(true);
      expect(pidsOf(a.events.filter((e) => e.workerId === a.paused)).every(alive)).toBe(true);
      expect(a.events.some((e) => e.type === 'run-finished' || e.type === 'run-failed')).toBe(false);
    }
  }

  /** Once their stalls end, the live runs end with the verdicts their variants are declared to give. */
  async function verdicts(others: Attendee[]): Promise<void> {
    for (const a of others) expectDeclared(await a.client.next(isEnd(a.runId), 120_000), a.variant);
  }

  /** Each lost attendee runs its variant again, on the live server it reached, and the others theirs: each to its declared verdict. */
  async function runAgain(attendees: Attendee[]): Promise<void> {
    for (let i = 0; i < attendees.length; i += AT_ONCE) await Promise.all(attendees.slice(i, i + AT_ONCE).map(runToVerdict));
  }

  async function runToVerdict(a: Attendee): Promise<void> {
    const run = { scenario: 'duplicate-job', variant: a.variant, params: PARAMS, requestId: 'again' };
    const { runId } = await a.client.startRun(run, 120_000);
    expectDeclared(await a.client.next(isEnd(runId), 120_000), a.variant);
  }
});

/** A run's end is its run-finished, with the verdict its variant declares at these parameters. */
function expectDeclared(end: ServerMessage, variant: string): void {
  const event = end.type === 'run-event' ? end.event : undefined;
  expect(event?.type).toBe('run-finished');
  if (event?.type !== 'run-finished') return;
  expect(event.verdict).toBe(variant === 'token-lua' ? 'pass' : 'fail');
  expect(event.verdict).toBe(event.expectedVerdict);
}
