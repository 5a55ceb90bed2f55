// The browser's netlink shim, preloaded into real processes: `ip`, which reads the machine's
// links through the routing netlink socket, can no longer open it; a TCP connection to a
// server on this machine, and the rest of a process's sockets, work as before.
import { execFile, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netlinkShim } from './netlinkShim.js';

const shim = netlinkShim();
const library = 'library' in shim ? shim.library : '';
const hasIp = spawnSync('ip', ['-V']).status === 0;

describe.runIf(library)('the netlink shim (runs where the machine builds it: Linux and a C compiler)', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((_request, response) => response.end('served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const preloaded = { ...process.env, LD_PRELOAD: library };

  it.runIf(hasIp)('refuses the routing netlink socket, through which a process reads the links', () => {
    expect(spawnSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).status).toBe(0);
    const blind = spawnSync('ip', ['-o', 'link', 'show'], { env: preloaded, encoding: 'utf8' });
    expect(blind.status).not.toBe(0);
    expect(blind.stderr).toMatch(/Address family not supported/);
  });

  it('leaves every other socket as it was: a request to a server on this machine is answered', async () => {
    // Not spawnSync: the server answering is in this process.
    const script = `fetch(${JSON.stringify(url)}).then((r) => r.text()).then((t) => process.stdout.write(t))`;
    const fetched = await promisify(execFile)(process.execPath, ['-e', script], { env: preloaded, encoding: 'utf8' });
    expect(fetched.stderr).toBe('');
    expect(fetched.stdout).toBe('served');
  });
});

describe.skipIf(library)('the netlink shim, where the machine cannot build it (runs where it cannot)', () => {
  it('says why', () => {
    expect(shim).toEqual({ why: expect.any(String) as unknown });
  });
});
