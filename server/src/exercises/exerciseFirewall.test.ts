// The network rule with several servers on one machine: each has its chain in racelab's
// table, none undoes another's (opening, closing, or dying), and a dead server's chain is
// swept by the next start. A second server is a real process of the built module.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THIS_PROCESS } from '../debris/runRegistry.js';
import { openConfinement, type Confinement } from './confinement.js';
import { firewallChains, sweepFirewall } from './exerciseFirewall.js';
import { removeScratches, reported, runHostile, STORES } from './testing/hostile.js';

const built = (file: string): string => fileURLToPath(new URL(`../../dist/exercises/${file}`, import.meta.url));
const OURS = `server_${THIS_PROCESS.pid}_${THIS_PROCESS.ticks ?? 'x'}`;

let confinement: Confinement;
let listener: Server;
beforeAll(async () => {
  confinement = await openConfinement(STORES);
  listener = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await confinement?.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await removeScratches();
});

/** Another server: the built module opened in a process of its own; `close` closes its walls, `kill` kills it. */
async function anotherServer(): Promise<{ pid: number; child: ChildProcessWithoutNullStreams; next(): Promise<unknown> }> {
  const script = `const { openConfinement } = await import(${JSON.stringify(built('confinement.js'))});
    const walls = await openConfinement(${JSON.stringify(STORES)});
    console.log(JSON.stringify(walls.description.words));
    process.stdin.once('data', async () => { await walls.close(); console.log(JSON.stringify('closed')); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const next = async (): Promise<unknown> => {
    const line = await lines.next();
    if (line.done) throw new Error(`the other server ended: ${stderr}`);
    return JSON.parse(line.value) as unknown;
  };
  return { pid: child.pid!, child, next };
}

/** What a confined process of ours gets from a stranger's port and from the stores. */
async function reach(): Promise<string[]> {
  const port = (listener.address() as { port: number }).port;
  const targets = [{ host: '127.0.0.1', port }, ...STORES];
  const script = `const net = require('net');
    Promise.all(${JSON.stringify(targets)}.map(({ host, port }) => new Promise((resolve) => {
      const socket = net.connect(port, host);
      socket.setTimeout(5000, () => { socket.destroy(); resolve('timeout'); });
      socket.on('connect', () => { socket.destroy(); resolve('connected'); });
      socket.on('error', (e) => resolve(e.code));
    }))).then((all) => console.log(JSON.stringify(all)));`;
  return reported<string[]>(await (await runHostile(confinement, script)).ended);
}

describe("servers' network rules on one machine", () => {
  it('this server has its chain where the machine allows it, and says so where not', async () => {
    if (confinement.description.network) {
      expect(await firewallChains()).toContain(OURS);
      expect(await reach()).toEqual(['ECONNREFUSED', 'connected', 'connected']);
    } else {
      expect(confinement.description.words).toContain('network not confined');
    }
  });

  it('opened twice in one process, the walls are one chain that stands until the last close', async () => {
    const again = await openConfinement(STORES);
    expect(again.description).toEqual(confinement.description);
    await again.close();
    if (confinement.description.network) {
      expect((await firewallChains()).filter((c) => c === OURS)).toHaveLength(1);
      expect(await reach()).toEqual(['ECONNREFUSED', 'connected', 'connected']);
    }
  });

  it("another server's walls open and close beside ours without touching them", async () => {
    if (!confinement.description.network) return expect(confinement.description.words).toContain('network not confined');
    const other = await anotherServer();
    expect(await other.next()).toBe(confinement.description.words);
    const theirs = (await firewallChains()).filter((c) => c.startsWith(`server_${other.pid}_`));
    expect(theirs).toHaveLength(1);
    expect(await firewallChains()).toContain(OURS);
    expect(await reach()).toEqual(['ECONNREFUSED', 'connected', 'connected']);
    other.child.stdin.write('close\n');
    expect(await other.next()).toBe('closed');
    const after = await firewallChains();
    expect(after).not.toContain(theirs[0]);
    expect(after).toContain(OURS);
    expect(await reach()).toEqual(['ECONNREFUSED', 'connected', 'connected']);
  });

  it("a dead server's chain is swept by the next start, and a live one's is not", async () => {
    if (!confinement.description.network) return expect(confinement.description.words).toContain('network not confined');
    const other = await anotherServer();
    await other.next();
    const theirs = (await firewallChains()).find((c) => c.startsWith(`server_${other.pid}_`));
    expect(theirs).toBeDefined();
    const exited = new Promise((resolve) => other.child.once('exit', resolve));
    other.child.kill('SIGKILL');
    await exited;
    expect(await firewallChains()).toContain(theirs);
    expect(await sweepFirewall()).toContain(theirs);
    expect(await firewallChains()).toContain(OURS);
    expect(await firewallChains()).not.toContain(theirs);
  });
});
