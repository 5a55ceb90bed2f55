// Hostile edited code in real processes, inside the walls this machine allows: each is
// refused or contained with a clear sentence, and nothing outside its scratch folder is
// touched. Which walls stand is the product's own finding (openConfinement); a wall the
// machine cannot give is asserted to be named as missing, never passed over.
import { createServer, type Server } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfinement, type Confinement } from './confinement.js';
import { endedWords } from './endedWords.js';
import { LIMITS } from './processLimits.js';
import { removeScratches, reported, runHostile, STORES } from './testing/hostile.js';

let confinement: Confinement;
beforeAll(async () => {
  confinement = await openConfinement(STORES);
});
afterAll(async () => {
  await confinement?.close();
  await removeScratches();
});

/** A field of /proc/<pid>/<file>, read while the process runs. */
async function procLine(pid: number, file: 'limits' | 'status', label: string): Promise<string> {
  const text = await readFile(`/proc/${pid}/${file}`, 'utf8');
  return text.split('\n').find((line) => line.startsWith(label)) ?? `no ${label} in /proc/${pid}/${file}`;
}

/** Resolves once the process has become node (prlimit has exec'd it). */
async function becameNode(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const name = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (name.trim() === 'node') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} never became node`);
}

describe('where edited code runs', () => {
  it('says what this machine applies', () => {
    const { description } = confinement;
    const root = process.platform === 'linux' && process.getuid?.() === 0;
    expect(description.ownUid).toBe(root);
    expect(description.words).toMatch(
      description.ownUid && description.network && description.limits ? /^confined: / : /^partly confined: /,
    );
    if (!description.network) expect(description.words).toContain('network not confined');
  });

  it('an infinite loop runs under its own uid and limits and is killed at the deadline; the server stays responsive', async () => {
    const hostile = await runHostile(confinement, 'while (true) {}', { deadlineMs: 2000 });
    await becameNode(hostile.pid);
    // Ground truth from the kernel, while it spins.
    const limits = {
      as: await procLine(hostile.pid, 'limits', 'Max address space'),
      cpu: await procLine(hostile.pid, 'limits', 'Max cpu time'),
      fsize: await procLine(hostile.pid, 'limits', 'Max file size'),
      nproc: await procLine(hostile.pid, 'limits', 'Max processes'),
      uid: await procLine(hostile.pid, 'status', 'Uid:'),
    };
    if (confinement.description.limits) {
      expect(limits.as).toMatch(new RegExp(`\\s${LIMITS.addressSpaceBytes}\\s+${LIMITS.addressSpaceBytes}\\s`));
      expect(limits.cpu).toMatch(new RegExp(`\\s${LIMITS.cpuSeconds}\\s+${LIMITS.cpuSeconds}\\s`));
      expect(limits.fsize).toMatch(new RegExp(`\\s${LIMITS.fileBytes}\\s+${LIMITS.fileBytes}\\s`));
    }
    if (confinement.description.ownUid) {
      expect(limits.uid).toBe(`Uid:\t${hostile.uid}\t${hostile.uid}\t${hostile.uid}\t${hostile.uid}`);
      expect(limits.nproc).toMatch(/Max processes\s+\d+\s+\d+\s+processes/);
    }
    // The server's event loop keeps its beat while the loop spins in its own process.
    let longestGap = 0;
    let last = performance.now();
    const beat = setInterval(() => {
      longestGap = Math.max(longestGap, performance.now() - last);
      last = performance.now();
    }, 20);
    const ended = await hostile.ended;
    clearInterval(beat);
    expect(ended).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(ended.ms).toBeGreaterThanOrEqual(2000);
    expect(longestGap).toBeLessThan(1000);
  });

  it('an allocation without end dies of its heap limit quickly, in words a learner reads', async () => {
    const hostile = await runHostile(confinement, 'const kept = []; let i = 0; while (true) kept.push(new Array(1e5).fill(i++));');
    const ended = await hostile.ended;
    expect(ended.timedOut).toBe(false);
    expect(ended.ms).toBeLessThan(20_000);
    expect(ended.signal).toBe('SIGABRT');
    expect(ended.stderr).toContain('Reached heap limit');
    expect(endedWords({ code: ended.code, signal: ended.signal, text: ended.stderr })).toBe('your code ran out of memory (128 MB)');
  });

  it("child_process is refused by Node's permission model", async () => {
    const ended = await (await runHostile(confinement, "require('child_process').spawnSync('sh', ['-c', 'echo escaped'])")).ended;
    expect(ended.stdout).not.toContain('escaped');
    expect(ended.code).toBe(1);
    expect(endedWords({ code: ended.code, signal: ended.signal, text: ended.stderr })).toBe(
      'your code was refused: starting a process is not allowed',
    );
  });

  it('a fork fails for the kernel too, where the process limit stands (without the permission model)', async () => {
    // Its first fs call starts libuv's pool, so the process has all its threads when it forks.
    const script = `const fs = require('fs'), cp = require('child_process');
      fs.readFile(__filename, () => {
        const r = cp.spawnSync('sh', ['-c', 'echo escaped > ' + JSON.stringify(__dirname + '/marker')]);
        console.log(JSON.stringify({ error: r.error ? r.error.code : null, marker: fs.existsSync(__dirname + '/marker') }));
      });`;
    const hostile = await runHostile(confinement, script, { permission: false });
    const ended = await hostile.ended;
    if (confinement.description.noChildProcesses) {
      expect(reported(ended)).toEqual({ error: 'EAGAIN', marker: false });
      expect(endedWords({ code: 1, signal: null, text: 'Error: spawnSync sh EAGAIN' })).toBe(
        'your code was refused: starting a process is not allowed',
      );
    } else {
      expect(confinement.description.words).toContain("child processes refused by Node's permission model only");
    }
  });

  it("reading a file outside its scratch folder is refused: the machine's and the server's own", async () => {
    const source = fileURLToPath(import.meta.url);
    for (const file of ['/etc/passwd', source]) {
      const ended = await (await runHostile(confinement, `console.log(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`)).ended;
      expect(ended.stdout).toBe('');
      expect(endedWords({ code: ended.code, signal: ended.signal, text: ended.stderr })).toBe(
        `your code was refused: reading ${file} is not allowed (only its scratch folder)`,
      );
    }
    // Writing beside the server's files, without the permission model: the uid alone refuses it.
    const script = `try { require('fs').writeFileSync(${JSON.stringify(path.join(path.dirname(source), 'planted.js'))}, 'x'); console.log('"written"'); }
      catch (e) { console.log(JSON.stringify(e.code)); }`;
    const ended = await (await runHostile(confinement, script, { permission: false })).ended;
    if (confinement.description.ownUid) {
      expect(reported(ended)).toBe('EACCES');
      await expect(stat(path.join(path.dirname(source), 'planted.js'))).rejects.toThrow(/ENOENT/);
    }
  });

  describe('the network', () => {
    let listener: Server;
    let accepted = 0;
    beforeAll(async () => {
      listener = createServer((socket) => {
        accepted++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

    const connecting = (targets: { host: string; port: number }[]): string => `const net = require('net');
      Promise.all(${JSON.stringify(targets)}.map(({ host, port }) => new Promise((resolve) => {
        const started = Date.now();
        const socket = net.connect(port, host);
        socket.setTimeout(5000, () => { socket.destroy(); resolve({ host, port, result: 'timeout', ms: Date.now() - started }); });
        socket.on('connect', () => { socket.destroy(); resolve({ host, port, result: 'connected', ms: Date.now() - started }); });
        socket.on('error', (e) => resolve({ host, port, result: e.code, ms: Date.now() - started }));
      }))).then((all) => console.log(JSON.stringify(all)));`;

    it('a connection to an address other than the stores is refused at once, where the machine allows the rule', async () => {
      const port = (listener.address() as { port: number }).port;
      const ended = await (
        await runHostile(
          confinement,
          connecting([
            { host: '127.0.0.1', port },
            { host: '1.1.1.1', port: 80 },
          ]),
        )
      ).ended;
      const results = reported<{ result: string; ms: number }[]>(ended);
      if (confinement.description.network) {
        expect(results.map((r) => r.result)).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
        expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(1000);
        expect(accepted).toBe(0);
        expect(endedWords({ code: 1, signal: null, text: `Error: connect ECONNREFUSED 127.0.0.1:${port}` }, STORES)).toBe(
          `your code was refused a connection to 127.0.0.1:${port}: it may reach only the run's stores and services`,
        );
      } else {
        expect(confinement.description.words).toContain('network not confined');
      }
    });

    it('where the machine gives less (not root), its description says what is missing, and the limits still stand', async () => {
      const less = await openConfinement(STORES, { root: false, setpriv: false, nft: false, prlimit: true });
      expect(less.description.words).toBe(
        'partly confined: same uid as the server (not root), network not confined (not root), 2 GB address space, 60 s of CPU, 64 MB files, ' +
          "child processes refused by Node's permission model only",
      );
      const port = (listener.address() as { port: number }).port;
      const before = accepted;
      const hostile = await runHostile(less, connecting([{ host: '127.0.0.1', port }]) + ';setTimeout(() => {}, 60_000)', {
        deadlineMs: 5000,
      });
      await becameNode(hostile.pid);
      expect(hostile.uid).toBeUndefined();
      expect(await procLine(hostile.pid, 'status', 'Uid:')).toMatch(new RegExp(`^Uid:\\t${process.getuid?.()}\\t`));
      expect(await procLine(hostile.pid, 'limits', 'Max address space')).toMatch(new RegExp(`\\s${LIMITS.addressSpaceBytes}\\s`));
      const ended = await hostile.ended;
      // Honest about the open network: the stranger's port was reached.
      expect(reported<{ result: string }[]>(ended).map((r) => r.result)).toEqual(['connected']);
      expect(accepted).toBe(before + 1);
    });

    it('the stores are reached', async () => {
      const ended = await (await runHostile(confinement, connecting(STORES))).ended;
      expect(reported<{ result: string }[]>(ended).map((r) => r.result)).toEqual(['connected', 'connected']);
    });
  });
});
