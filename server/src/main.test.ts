// The server as `npm start` runs it, on the embedded stores: the URLs point at closed
// ports and the local defaults are skipped, so it must start its own PostgreSQL and
// redis-server, serve a run to its verdict, and stop them again on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '@racelab/shared';
import { freePort } from './services/freePort.js';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGKILL');
});

const portOpen = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('npm start on the embedded stores', () => {
  it('comes up with working stores, runs a scenario, and stops what it started', async () => {
    const [redisPort, pgPort] = [await freePort(), await freePort()];
    server = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        PORT: '0',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
        RACELAB_SKIP_DEFAULTS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const found = /playground on (http:\/\/\S+)/.exec(output)?.[1];
        if (found) resolve(found), clearInterval(timer);
        if (server!.exitCode !== null) reject(new Error(`server exited: ${output}`)), clearInterval(timer);
      }, 50);
    });
    expect(output).toMatch(/redis: redis:\/\/127\.0\.0\.1:\d+ \(embedded\)/);
    expect(output).toMatch(/postgres: postgres:\/\/postgres:\*+@127\.0\.0\.1:\d+\/postgres \(embedded\)/);
    const embedded = [...output.matchAll(/(redis|postgres):\/\/\S+ \(embedded\)/g)].map((m) => m[0].split(' ')[0]!.replace(/:\*+@/, '@'));

    const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`);
    const verdict = await new Promise<unknown>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as ServerMessage;
        if (message.type === 'hello') {
          socket.send(JSON.stringify({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'token-lua' }));
        }
        if (message.type === 'run-event' && message.event.type === 'run-finished') resolve(message.event.metrics);
        if (message.type === 'run-event' && message.event.type === 'run-failed') reject(new Error(message.event.message));
      });
    });
    expect(verdict).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    socket.close();

    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const url of embedded) expect(await portOpen(url)).toBe(false);
  }, 120_000);
});
