// The workshop on this machine, for real: two racelab servers against the real stores behind
// the real HAProxy. Through the one address: /healthz answers, a page's first answer sets the
// affinity cookie and the cookie keeps it on that server, a WebSocket with the cookie reaches
// that server and runs a scenario to its verdict there; stopping leaves no process behind.
// The launcher's options are checked on the built launcher: a bad one exits 2 with the reason.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtScript } from '../services/builtScript.js';
import { isAlive } from '../services/pids.js';
import { connectClient } from '../testing/wsClient.js';
import { AFFINITY_COOKIE } from './haproxyConfig.js';
import { findHaproxy, startWorkshop, type Workshop } from './workshop.js';

const haproxy = findHaproxy();
let workshop: Workshop;
const lines: string[] = [];

/** GET `path` through the proxy (or at `base`), with the affinity cookie when given. */
async function get(path: string, cookie?: string, base = workshop.url): Promise<Response> {
  const response = await fetch(new URL(path, base), { headers: cookie ? { cookie: `${AFFINITY_COOKIE}=${cookie}` } : {} });
  await response.text();
  return response;
}

/** Retries `check` until it holds: for states the proxy reaches by its own health checks. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(250);
  }
}

/** The value of a metric without labels on one server, straight from its own port. */
async function metric(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe.skipIf(!haproxy)('workshop: two servers behind HAProxy', () => {
  beforeAll(async () => {
    const env = { ...process.env, RACELAB_POOL_SIZE: '1' };
    workshop = await startWorkshop({ servers: 2, haproxy: haproxy!, env, log: (line) => lines.push(line) });
    // The proxy takes a server in once its /readyz says so (its warm pool filled): each server
    // answers its own cookie then, instead of the proxy handing the page to the other.
    for (const server of workshop.servers) {
      await until(`${server.name} ready`, async () => (await get('/readyz', undefined, `http://127.0.0.1:${server.port}/`)).ok);
      await until(`the proxy routes ${server.name}'s cookie to it`, async () => {
        const response = await get('/healthz', server.name);
        return response.headers.get('x-racelab-server') === server.name;
      });
    }
  }, 180_000);
  afterAll(() => workshop?.stop());

  it('answers /healthz through the proxy and keeps a page on the server its cookie names', async () => {
    expect(workshop.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(workshop.servers.map((s) => s.name)).toEqual(['s1', 's2']);
    expect((await get('/healthz')).status).toBe(200);
    // A page's first answer names its server in the cookie; with it, every answer comes from there.
    const first = await get('/api/catalog');
    expect(first.status).toBe(200);
    const cookie = new RegExp(`^${AFFINITY_COOKIE}=(s[12]);`).exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBe(first.headers.get('x-racelab-server'));
    for (let i = 0; i < 4; i++) {
      const again = await get('/api/catalog', cookie);
      expect(again.headers.get('x-racelab-server')).toBe(cookie);
      expect(again.headers.get('set-cookie')).toBeNull();
    }
  });

  it('takes a WebSocket with the cookie to that server and runs a scenario to its verdict there', async () => {
    const [, second] = workshop.servers;
    const client = await connectClient(`${workshop.url.replace('http', 'ws')}ws`, { headers: { cookie: `${AFFINITY_COOKIE}=s2` } });
    await client.next((m) => m.type === 'hello');
    expect(await metric(second!.port, 'racelab_websocket_connections')).toBe(1);
    expect(await metric(workshop.servers[0]!.port, 'racelab_websocket_connections')).toBe(0);
    await client.startRun({ scenario: 'duplicate-job', variant: 'token-lua' });
    const finished = await client.next((m) => m.type === 'run-event' && m.event.type === 'run-finished', 90_000);
    expect(finished.type === 'run-event' && finished.event.type === 'run-finished' && finished.event.verdict).toBe('pass');
    client.socket.close();
    await client.closed;
  }, 120_000);

  it('stops the proxy and every server and removes its folder, leaving no process behind', async () => {
    const pids = [workshop.haproxyPid, ...workshop.servers.map((s) => s.pid)];
    expect(pids.every(isAlive)).toBe(true);
    await workshop.stop();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(workshop.dir)).toBe(false);
    // Nothing else names the workshop's folder either (a proxy the launcher lost track of).
    const strays = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(workshop.dir);
        } catch {
          return false;
        }
      });
    expect(strays).toEqual([]);
    expect(lines.filter((line) => /exited|ended by/.test(line))).toEqual([]);
  }, 60_000);
});

describe('workshop launcher options', () => {
  const launcher = builtScript(new URL('./main.js', import.meta.url));
  it.each([
    [['--servers', '0'], /--servers must be an integer from 1 to 16, got 0/],
    [['--servers', '17'], /--servers must be an integer from 1 to 16, got 17/],
    [['--port', 'x'], /--port must be an integer from 1 to 65535, got x/],
    [['--nope'], /Unknown option '--nope'/],
  ])('refuses %j with the reason and exit 2', (args, reason) => {
    const run = spawnSync(process.execPath, [launcher, ...args], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(reason);
  });

  it('prints its usage for --help', () => {
    const run = spawnSync(process.execPath, [launcher, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('--servers');
  });

  it('finds no HAProxy where there is none', () => {
    expect(findHaproxy('/nonexistent', [])).toBeNull();
  });
});
