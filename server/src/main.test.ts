// The server as `npm start` runs it. On the embedded stores: no URL is set and the local
// defaults are skipped, so it must start its own PostgreSQL and redis-server, serve a run to its verdict, and stop them again on Ctrl-C. On the real
// stores: Ctrl-C in the middle of a run tells the page why its run ended (within 2 s),
// kills the workers and drops the run's keys and schema; the server binds 127.0.0.1 and
// never prints or sends a password.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from './services/index.js';
import { freePort } from './services/freePort.js';
import { listeningAddresses } from './testing/processTable.js';
import { mainScript, startServerProcess, type ServerProcess } from './testing/serverProcess.js';
import { alive, connectClient, isEnd, isEvent, leftovers, workerPids } from './testing/wsClient.js';

const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill('SIGKILL');
});

const portOpen = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const startServer = (env: NodeJS.ProcessEnv): Promise<ServerProcess> => startServerProcess(env, servers);

/** Starts a long run and waits until it is at work; returns its id and its workers' pids. */
async function startLongRun(address: string) {
  const client = await connectClient(`${address.replace('http', 'ws')}/ws`);
  await client.next((m) => m.type === 'hello');
  const { runId } = await client.startRun({ scenario: 'duplicate-job', variant: 'token-lua', params: { workMs: 8000 } });
  await client.next(isEvent('work-started'), 60_000);
  const events = client.inbox.flatMap((m) => (m.type === 'run-event' ? [m.event] : []));
  return { client, runId, pids: workerPids(events) };
}

describe('npm start on the embedded stores', () => {
  it('comes up with working stores, runs a scenario, and on Ctrl-C mid-run stops the run, its workers and the stores', async () => {
    // Empty is not set: the defaults are skipped, so the server starts its own stores.
    const { server, address, output } = await startServer({ REDIS_URL: '', DATABASE_URL: '', RACELAB_SKIP_DEFAULTS: '1' });
    expect(output()).toMatch(/redis: redis:\/\/127\.0\.0\.1:\d+ \(embedded\)/);
    expect(output()).toMatch(/postgres: postgres:\/\/postgres:\*+@127\.0\.0\.1:\d+\/postgres \(embedded\)/);
    const embedded = [...output().matchAll(/(redis|postgres):\/\/\S+ \(embedded\)/g)].map((m) => m[0].split(' ')[0]!.replace(/:\*+@/, '@'));

    const page = await connectClient(`${address.replace('http', 'ws')}/ws`);
    await page.next((m) => m.type === 'hello');
    page.send({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'token-lua' });
    const end = await page.next(isEnd(), 60_000);
    expect(end.type === 'run-event' && end.event.type === 'run-finished' ? end.event.metrics : end).toEqual({
      emailsSent: 1,
      maxConcurrentHolders: 1,
      lockTtlAfterRunMs: -2,
    });
    page.socket.close();

    const { client, pids } = await startLongRun(address);
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    expect(await client.next(isEnd())).toMatchObject({ event: { type: 'run-failed', message: 'the server is stopping' } });
    expect(await exited).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    for (const url of embedded) expect(await portOpen(url)).toBe(false);
  }, 120_000);
});

describe('npm start with a URL set that does not answer', () => {
  it('exits 1 with the reason, and serves no other store in its place', async () => {
    const redisPort = await freePort();
    const server = spawn(process.execPath, [mainScript], {
      // The default Redis answers on this machine: a fallback would find it.
      env: { ...process.env, PORT: '0', REDIS_URL: `redis://127.0.0.1:${redisPort}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(server);
    let output = '';
    server.stdout.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => server.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(`REDIS_URL=redis://127.0.0.1:${redisPort} does not answer (ECONNREFUSED)`);
    expect(output).not.toMatch(/playground on|\(default\)|\(embedded\)/);
  }, 60_000);
});

describe('npm start on the real stores', () => {
  const secret = 'hunter2-not-for-pages';
  const redisUrl = (process.env.REDIS_URL ?? DEFAULT_REDIS_URL).replace('redis://', `redis://:${secret}@`);
  const databaseUrl = (process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL).replace('postgres://postgres@', `postgres://postgres:${secret}@`);

  it('binds 127.0.0.1 by default, and Ctrl-C mid-run fails the run on the page within 2 s and leaves nothing behind', async () => {
    // Passwords in the URLs (this Redis and PostgreSQL ignore them): they must show up nowhere.
    const { server, address, output } = await startServer({ REDIS_URL: redisUrl, DATABASE_URL: databaseUrl, HOST: '' });
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output()).toMatch(/redis: redis:\/\/:\*\*\*@127/); // the URLs with the password were used, shown redacted
    // Only loopback, as the kernel's socket tables say: a connection to another of the machine's
    // addresses could reach another process that holds the same port number there (a lab's
    // store on a veth address, say).
    expect(listeningAddresses(server.pid!)).toEqual([`127.0.0.1:${new URL(address).port}`]);

    const { client, runId, pids } = await startLongRun(address);
    expect(pids.length).toBe(3);
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    const signalledAt = performance.now();
    server.kill('SIGINT');
    const end = await client.next(isEnd());
    const took = performance.now() - signalledAt;
    expect(end).toMatchObject({ event: { type: 'run-failed', message: 'the server is stopping' } });
    expect(took).toBeLessThan(2000);
    console.log(`Ctrl-C: run-failed on the page ${Math.round(took)} ms after SIGINT`);
    expect(await client.closed).toBe(1001);
    expect(await exited).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);

    const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 1 });
    try {
      expect(await leftovers(redis, pool, runId)).toEqual({ keys: [], schema: false });
    } finally {
      redis.disconnect();
      await pool.end();
    }
    const everything = output() + JSON.stringify(client.inbox);
    expect(everything).not.toContain(secret);
    expect(everything).toContain('racelab: ');

    // The next server on the same stores runs the next run to its verdict.
    const again = await startServer({ HOST: '' });
    const page = await connectClient(`${again.address.replace('http', 'ws')}/ws`);
    await page.next((m) => m.type === 'hello');
    page.send({ type: 'start-run', requestId: 'next', scenario: 'duplicate-job', variant: 'token-lua' });
    const next = await page.next(isEnd(), 60_000);
    expect(next).toMatchObject({ event: { type: 'run-finished', verdict: 'pass' } });
    const stopped = new Promise<number | null>((resolve) => again.server.once('exit', resolve));
    again.server.kill('SIGINT');
    expect(await stopped).toBe(0);
  }, 180_000);
});
