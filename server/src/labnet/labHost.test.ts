// A lab host's partition is the kernel's: from inside the namespace a connection to the cut
// address hangs until its own timeout, while the server's own connection to the same Redis
// answers; the link healed, or the drop lifted, it answers again. And a namespace whose server was SIGKILLed is
// gone after the next sweep, while a live server's are left alone.
import { execFileSync, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { racelabNamespaces, sweepNamespaces } from '../debris/namespaces.js';
import { startEmbeddedRedis } from '../services/embeddedRedis.js';
import type { StartedService } from '../services/startedService.js';
import { startRunLab } from '../runs/runLab.js';
import { createLabHost, newestRuleHandle, type LabHost } from './labHost.js';
import { KERNEL_HAS_NETEM, ROOT_ON_LINUX } from '../testing/machine.js';
import { pingFrom } from '../testing/pingFrom.js';
import { detectLabMechanisms } from './mechanisms.js';

const mechanisms = detectLabMechanisms();

describe("a rule's handle read from its chain (where nft's echo of it is missing)", () => {
  // As `nft --handle list chain inet racelab out` prints it, with a pair dropped twice.
  const listing = [
    'table inet racelab {',
    '\tchain out { # handle 1',
    '\t\ttype filter hook output priority filter; policy accept;',
    '\t\tip daddr 10.213.0.13 tcp dport 33809 drop # handle 2',
    '\t\tip daddr 10.213.0.13 tcp dport 3380 drop # handle 3',
    '\t\tip daddr 10.213.0.13 tcp dport 33809 drop # handle 4',
    '\t}',
    '}',
  ].join('\n');
  it('is the newest rule with exactly that text, or none', () => {
    expect(newestRuleHandle(listing, 'ip daddr 10.213.0.13 tcp dport 33809 drop')).toBe(4);
    expect(newestRuleHandle(listing, 'ip daddr 10.213.0.13 tcp dport 3380 drop')).toBe(3);
    expect(newestRuleHandle(listing, 'ip daddr 10.213.0.1 tcp dport 3380 drop')).toBeUndefined();
  });
});

describe('what the machine gives the labs', () => {
  it('as root on Linux, namespaces and libfaketime are found; forced off, none is, and it says why', () => {
    // As root on Linux all three are there (.ci/run installs nftables and faketime); elsewhere no namespaces, so no nftables.
    expect(mechanisms, mechanisms.why.join('; ')).toMatchObject(
      ROOT_ON_LINUX
        ? { namespaces: true, nftables: true, faketime: expect.stringMatching(/libfaketime\.so\.1$/) as unknown }
        : { namespaces: false, nftables: false },
    );
    const off = detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' });
    expect(off).toEqual({
      namespaces: false,
      nftables: false,
      netem: expect.any(Function) as unknown,
      faketime: null,
      wallClockShim: null,
      why: ['RACELAB_REAL_FAULTS=off'],
    });
  });

  it('looks for netem in a scratch namespace, once, without blocking, and leaves none of its own; with no namespaces there is none', async () => {
    const own = async (): Promise<string[]> => (await racelabNamespaces()).filter((name) => name.startsWith(`racelab-${process.pid}-`));
    const before = await own();
    const looked = detectLabMechanisms({ ...process.env });
    // The probe runs while this process goes on: a timer set now fires before it is over.
    let ticked = false;
    setTimeout(() => (ticked = true), 0);
    const netem = await looked.netem();
    expect(ticked).toBe(true);
    expect(await looked.netem()).toBe(netem);
    expect(await own()).toEqual(before);
    expect(netem).toBe(looked.namespaces && KERNEL_HAS_NETEM);
    expect(await detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' }).netem()).toBe(false);
  });
});

// The fallback runs on every machine (forced off here); where the machine gives no
// namespaces, the tests of real hosts are reported as skipped, and one that shows none can be
// made runs in their place.
describe("a run's lab without namespaces", () => {
  it('makes no host and says why; the sweep finds nothing of it to delete', async () => {
    const off = detectLabMechanisms({ RACELAB_REAL_FAULTS: 'off' });
    const lab = await startRunLab(
      ['worker-1'],
      { network: true, nodes: ['far replica'] },
      { redisUrl: 'redis://127.0.0.1:6379', databaseUrl: 'postgres://127.0.0.1/x' },
      off,
    );
    expect(lab.hosts).toEqual({});
    expect(lab.launches).toEqual([{}]);
    await lab.close();
    expect((await sweepNamespaces()).filter((n) => n.startsWith(`racelab-${process.pid}-`))).toEqual([]);
  });
});

describe.skipIf(mechanisms.namespaces)('a lab host, on a machine without namespaces (runs where it gives none)', () => {
  it('cannot be made: the kernel refuses, and nothing is left', async () => {
    expect(mechanisms.why.length).toBeGreaterThan(0);
    await expect(createLabHost('worker-1')).rejects.toThrow(/netns add/);
    expect((await racelabNamespaces()).filter((n) => n.startsWith(`racelab-${process.pid}-`))).toEqual([]);
    expect(await sweepNamespaces()).toEqual([]);
  });
});

describe.runIf(mechanisms.namespaces)('a lab host (runs where the machine gives network namespaces)', () => {
  let host: LabHost;
  let node: StartedService;
  let port: number;
  let own: Redis;
  beforeAll(async () => {
    host = await createLabHost('worker-1');
    // Bound to the server's loopback and to the host end of the lab link.
    node = await startEmbeddedRedis({ args: ['--bind', '127.0.0.1', host.hostAddress, '--protected-mode', 'no'] });
    port = Number(new URL(node.url).port);
    own = new Redis(node.url, { maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    own?.disconnect();
    await node?.stop();
    await host?.close();
  });

  it("reaches the host over its link, and an nftables drop makes the connection hang while the server's own answers", async () => {
    expect(await pingFrom(host, host.hostAddress, port, 2000)).toBe('PONG');
    // 127.0.0.1 inside the namespace is the namespace's own loopback: no Redis there.
    expect(await pingFrom(host, '127.0.0.1', port, 2000)).toBe('ECONNREFUSED');
    expect(mechanisms.nftables).toBe(true);
    await host.drop(host.hostAddress, port);
    expect(await pingFrom(host, host.hostAddress, port, 700)).toBe('timeout');
    expect(await own.ping()).toBe('PONG');
  });

  it('a drop lifted deletes that rule alone: the pair talks again once each of its rules is lifted', async () => {
    const other = await createLabHost('worker-2');
    const node2 = await startEmbeddedRedis({ args: ['--bind', '127.0.0.1', other.hostAddress, '--protected-mode', 'no'] });
    try {
      const port2 = Number(new URL(node2.url).port);
      // Two rules for one pair, asked for at once on a namespace with no table yet: one is made after the other.
      const [first, second] = await Promise.all([other.drop(other.hostAddress, port2), other.drop(other.hostAddress, port2)]);
      expect(await pingFrom(other, other.hostAddress, port2, 700)).toBe('timeout');
      await second.lift();
      expect(await pingFrom(other, other.hostAddress, port2, 700)).toBe('timeout');
      await first.lift();
      await first.lift(); // once, however often it is asked
      expect(await pingFrom(other, other.hostAddress, port2, 2000)).toBe('PONG');
    } finally {
      await node2.stop();
      await other.close();
    }
  });

  it('a dropFrom loses what one service sends to the host, and nothing else', async () => {
    const other = await createLabHost('far replica');
    const node2 = await startEmbeddedRedis({ args: ['--bind', '127.0.0.1', other.hostAddress, '--protected-mode', 'no'] });
    const own2 = new Redis(node2.url, { maxRetriesPerRequest: 0 });
    try {
      const port2 = Number(new URL(node2.url).port);
      expect(await pingFrom(other, other.hostAddress, port2, 2000)).toBe('PONG');
      await other.dropFrom(other.hostAddress, port2);
      // Its answers (even the handshake's) never arrive; the server's own connection answers.
      expect(await pingFrom(other, other.hostAddress, port2, 700)).toBe('timeout');
      expect(await own2.ping()).toBe('PONG');
      // Another service on the same host address still reaches the namespace.
      expect(await pingFrom(other, other.hostAddress, Number(new URL(node.url).port), 2000)).toBe('ECONNREFUSED');
    } finally {
      own2.disconnect();
      await node2.stop();
      await other.close();
    }
  });

  it('two processes creating hosts at once never share an address block', async () => {
    const labHostModule = new URL('./labHost.js', import.meta.url).href.replace('/src/', '/dist/');
    const script = `const { createLabHost } = await import(${JSON.stringify(labHostModule)});
const hosts = [];
for (let i = 0; i < 3; i++) hosts.push(await createLabHost('h' + i));
console.log(JSON.stringify(hosts.map((h) => h.hostAddress)));
process.stdin.resume();
process.stdin.on('end', async () => { for (const h of hosts) await h.close(); process.exit(0); });`;
    // Each keeps its hosts until told to close them: both sets exist at once.
    const children = [0, 1].map(() =>
      spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const made = await Promise.all(
      children.map(
        (child) =>
          new Promise<string[]>((resolve) =>
            child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as string[])),
          ),
      ),
    );
    const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of children) child.stdin.end();
    expect(await Promise.all(exited)).toEqual([0, 0]);
    expect(new Set(made.flat()).size).toBe(6);
  });

  it('a link set down hangs every connection of the host; set up again, it answers', async () => {
    const other = await createLabHost('worker-2');
    const node2 = await startEmbeddedRedis({ args: ['--bind', '127.0.0.1', other.hostAddress, '--protected-mode', 'no'] });
    const own2 = new Redis(node2.url, { maxRetriesPerRequest: 0 });
    try {
      const port2 = Number(new URL(node2.url).port);
      expect(await pingFrom(other, other.hostAddress, port, 2000)).toBe('ECONNREFUSED'); // node-1 listens on worker-1's link only
      expect(await pingFrom(other, other.hostAddress, port2, 2000)).toBe('PONG');
      await other.setLink(false);
      expect(await pingFrom(other, other.hostAddress, port2, 700)).toBe('timeout');
      expect(await own2.ping()).toBe('PONG');
      await other.setLink(true);
      expect(await pingFrom(other, other.hostAddress, port2, 2000)).toBe('PONG');
    } finally {
      own2.disconnect();
      await node2.stop();
      await other.close();
    }
  });

  it('leaves nothing once closed: no namespace, no link', async () => {
    const short = await createLabHost('worker-3');
    // The link by its interface index, which the kernel does not hand out again: its name
    // may be taken at once by a lab host another test process makes on the freed block.
    const index = execFileSync('ip', ['-o', 'link', 'show', 'dev', short.hostLink]).toString().split(':')[0]!;
    expect(index).toMatch(/^\d+$/);
    await short.close();
    expect(await racelabNamespaces()).not.toContain(short.namespace);
    const links = execFileSync('ip', ['-o', 'link', 'show']).toString().split('\n');
    expect(links.filter((line) => line.startsWith(`${index}: `))).toEqual([]);
  });
});

describe.runIf(mechanisms.namespaces)('the start-up sweep (runs where the machine gives network namespaces)', () => {
  it('deletes the namespaces of a racelab process killed with SIGKILL, and only those', async () => {
    const mine = await createLabHost('kept');
    // A process of its own creates a lab host and is killed before it can remove it.
    const labHostModule = new URL('./labHost.js', import.meta.url).href.replace('/src/', '/dist/');
    const script = `const { createLabHost } = await import(${JSON.stringify(labHostModule)});
const host = await createLabHost('left');
console.log(host.namespace);
setInterval(() => {}, 1000);`;
    const leaveOne = async (): Promise<string> => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const left = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      return left;
    };
    // Every racelab process on the machine sweeps dead owners' namespaces (a server beside this
    // test, starting): when one of them took the namespace first, it is gone, but this sweep
    // did not remove it, so the experiment is played again (three times at most).
    let left = '';
    let swept: string[] = [];
    for (let attempt = 0; attempt < 3 && !swept.includes(left); attempt++) {
      left = await leaveOne();
      swept = await sweepNamespaces();
      expect(await racelabNamespaces()).not.toContain(left);
    }
    expect(swept).toContain(left);
    expect(swept).not.toContain(mine.namespace);
    expect(await racelabNamespaces()).toContain(mine.namespace);
    await mine.close();
    expect(await racelabNamespaces()).not.toContain(mine.namespace);
  });
});
