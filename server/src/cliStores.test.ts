// The CLI when its stores fail it, on real stores: a URL that is set and does not answer is
// exit 1 with the reason and no other store in its place; a store that freezes before or
// during a run ends it with the reason within 2 s (asserted < 3 s) and the CLI exits within
// 1 s after (asserted < 2 s), never using a pool it has ended; what the frozen store kept is
// left registered, said so, and taken by the next sweep. A Redis freezes as a private
// redis-server stopped with SIGSTOP; a PostgreSQL as a proxy in front of the machine's that
// passes nothing any more (the machine's own is shared and is never stopped).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL } from './services/index.js';
import { startFreezableProxy, type FreezableProxy } from './testing/freezableProxy.js';
import { startPrivateRedis, type PrivateRedis } from './testing/privateRedis.js';
import { leftovers, usersLeft } from './testing/wsClient.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const clean = fileURLToPath(new URL('../dist/clean.js', import.meta.url));
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
/** A run that works 10 s: a store frozen while it works stops it long before its end. */
const LONG_RUN = ['duplicate-job', '--variant', 'token-lua', '--param', 'workMs=10000'];
const CLOSED_POOL = 'Cannot use a pool after calling end';

interface CliProcess {
  pid: number;
  /** Everything it printed so far, stdout and stderr apart. */
  stdout(): string;
  stderr(): string;
  /** performance.now() when a line matching `pattern` first arrived, if one has. */
  lineAt(pattern: RegExp): number | undefined;
  /** Its exit code and performance.now() at its exit. */
  exited: Promise<{ code: number | null; atMs: number }>;
}

/**
 * A machine name of a test's own for the CLI it starts: the sweeps of other tests' servers on
 * the shared PostgreSQL leave what that CLI left alone, until `cleanAs` sweeps it.
 */
const ownMachine = (): string => `cli-stores-test-${randomBytes(4).toString('hex')}`;

/** `npm run clean` as the machine `env` names: what it prints. */
async function cleanAs(env: NodeJS.ProcessEnv): Promise<string> {
  return (await promisify(execFile)(process.execPath, [clean], { env: { ...process.env, ...env } })).stdout;
}

function startCli(args: string[], env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const printed = { stdout: '', stderr: '' };
  const lines: Array<{ text: string; atMs: number }> = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].on('data', (chunk: Buffer) => {
      const atMs = performance.now();
      printed[stream] += chunk.toString();
      for (const text of chunk.toString().split('\n')) lines.push({ text, atMs });
    });
  }
  return {
    pid: child.pid!,
    stdout: () => printed.stdout,
    stderr: () => printed.stderr,
    lineAt: (pattern) => lines.find((line) => pattern.test(line.text))?.atMs,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve({ code, atMs: performance.now() }))),
  };
}

let redis: PrivateRedis;
let redisPid: number;
let pool: pg.Pool;
beforeAll(async () => {
  redis = await startPrivateRedis();
  const probe = new Redis(redis.url);
  redisPid = Number(/process_id:(\d+)/.exec(await probe.info('server'))![1]);
  probe.disconnect();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
});
afterAll(async () => {
  process.kill(redisPid, 'SIGCONT');
  await pool?.end();
  await redis?.stop();
});

/** Runs `test` with the private Redis frozen, and thaws it whatever happens. */
async function whileFrozen<T>(test: () => Promise<T>): Promise<T> {
  try {
    return await test();
  } finally {
    process.kill(redisPid, 'SIGCONT');
  }
}

/** The run the CLI `pid` registered, once its workers are at work (their connections carry its schema's name). */
async function runAtWork(pid: number): Promise<string> {
  for (;;) {
    const { rows } = await pool.query<{ run_id: string }>(
      `select r.run_id from racelab.runs r where r.pid = $1
         and exists (select 1 from pg_stat_activity a where a.application_name like 'racelab-worker run_' || r.run_id || ' %')`,
      [pid],
    );
    if (rows[0]) return rows[0].run_id;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function registered(runId: string): Promise<boolean> {
  return (await pool.query('select 1 from racelab.runs where run_id = $1', [runId])).rows.length > 0;
}

/** The reason within 3 s of the freeze (the bound is 2 s), the exit within 2 s of the reason (the bound is 1 s); returns both, in ms. */
async function saidAndExited(cliRun: CliProcess, frozeAt: number, reason: RegExp): Promise<{ reasonMs: number; exitMs: number }> {
  const { code, atMs } = await cliRun.exited;
  expect(code).toBe(1);
  const saidAt = cliRun.lineAt(reason);
  expect(saidAt, cliRun.stderr()).toBeDefined();
  const timing = { reasonMs: Math.round(saidAt! - frozeAt), exitMs: Math.round(atMs - saidAt!) };
  expect(timing.reasonMs).toBeLessThan(3000);
  expect(timing.exitMs).toBeLessThan(2000);
  expect(cliRun.stdout() + cliRun.stderr()).not.toContain(CLOSED_POOL);
  return timing;
}

describe('the CLI with a URL set that does not answer', () => {
  it('exits 1 naming the frozen Redis of REDIS_URL, and runs against no other', async () => {
    await whileFrozen(async () => {
      process.kill(redisPid, 'SIGSTOP');
      const cliRun = startCli(LONG_RUN, { REDIS_URL: redis.url, DATABASE_URL: databaseUrl });
      const { code } = await cliRun.exited;
      expect(code).toBe(1);
      expect(cliRun.stderr()).toContain(`REDIS_URL=${redis.url} does not answer (timed out after 1500 ms)`);
      expect(cliRun.stderr()).toContain('no other is tried in its place');
      // No run: nothing printed of one, nothing registered by it.
      expect(cliRun.stdout()).toBe('');
      expect((await pool.query('select 1 from racelab.runs where pid = $1', [cliRun.pid])).rows).toEqual([]);
    });
  }, 60_000);

  it('exits 1 naming DATABASE_URL when it leads to a listener that says nothing', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const cliRun = startCli(LONG_RUN, { REDIS_URL: redis.url, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` });
      const { code } = await cliRun.exited;
      expect(code).toBe(1);
      expect(cliRun.stderr()).toContain(`DATABASE_URL=postgres://postgres@127.0.0.1:${port}/postgres does not answer (timeout expired)`);
      expect(held.length).toBeGreaterThan(0); // it was asked, and said nothing
      expect(cliRun.stdout()).toBe('');
    } finally {
      held.forEach((socket) => socket.destroy());
      silent.close();
    }
  }, 60_000);
});

describe('the CLI with a store that freezes', () => {
  it('before the run starts (Redis stopped as the CLI connects to it): the reason, exit 1, no run', async () => {
    let frozeAt = 0;
    // The proxy sees the CLI's own connection name itself, and stops Redis before that first command reaches it.
    const proxy = await startFreezableProxy(Number(new URL(redis.url).port), (chunk) => {
      if (frozeAt === 0 && chunk.includes('racelab-server')) {
        frozeAt = performance.now();
        process.kill(redisPid, 'SIGSTOP');
      }
    });
    await whileFrozen(async () => {
      const cliRun = startCli(LONG_RUN, { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, DATABASE_URL: databaseUrl });
      const connected = await Promise.race([until(() => frozeAt), cliRun.exited.then(() => 0)]);
      expect(connected, `the CLI exited before it connected: ${cliRun.stderr()}`).toBeGreaterThan(0);
      const timing = await saidAndExited(cliRun, connected, /^racelab: Redis has not answered for \d+\.\d s \(stopped or frozen\)/);
      console.log(`Redis frozen before the run: reason ${timing.reasonMs} ms after SIGSTOP, exit ${timing.exitMs} ms after the reason`);
      expect(cliRun.stdout()).toBe('');
      expect((await pool.query('select 1 from racelab.runs where pid = $1', [cliRun.pid])).rows).toEqual([]);
    }).finally(() => proxy.close());
  }, 60_000);

  it('during the run (Redis stopped): the reason, exit 1, the keys left registered, said so, and swept next', async () => {
    const env = { REDIS_URL: redis.url, DATABASE_URL: databaseUrl, RACELAB_HOST_ID: ownMachine() };
    const cliRun = startCli(LONG_RUN, env);
    const runId = await runAtWork(cliRun.pid);
    await whileFrozen(async () => {
      const frozeAt = performance.now();
      process.kill(redisPid, 'SIGSTOP');
      const timing = await saidAndExited(cliRun, frozeAt, /^racelab: Redis has not answered for \d+\.\d s \(stopped or frozen\)/);
      console.log(`Redis frozen during the run: reason ${timing.reasonMs} ms after SIGSTOP, exit ${timing.exitMs} ms after the reason`);
      expect(cliRun.stdout()).toMatch(/\n {2}run failed: Redis has not answered for \d+\.\d s \(stopped or frozen\)/);
      expect(cliRun.stderr()).toContain(
        `racelab: run ${runId}: left for the next sweep (the run stays registered): could not delete the keys racelab:${runId}:* (Redis has not answered`,
      );
    });
    // PostgreSQL answered: the schema went. The lock key stayed in Redis, and the run in the registry.
    const store = new Redis(redis.url);
    try {
      expect(await leftovers(store, pool, runId)).toMatchObject({ keys: [expect.stringMatching(`^racelab:${runId}:`)], schema: false });
      // So did the run's Redis user; its role went with its schema.
      expect(await usersLeft(store, pool, runId)).toEqual([`Redis ACL user racelab_run_${runId}`]);
      expect(await registered(runId)).toBe(true);
      expect(await cleanAs(env)).toMatch(/^racelab clean: /);
      expect(await leftovers(store, pool, runId)).toEqual({ keys: [], schema: false });
      expect(await usersLeft(store, pool, runId)).toEqual([]);
      expect(await registered(runId)).toBe(false);
    } finally {
      store.disconnect();
    }
  }, 90_000);

  it('during the run (PostgreSQL passes nothing): the reason, exit 1, the schema left registered, said so, and swept next', async () => {
    const proxy: FreezableProxy = await startFreezableProxy(Number(new URL(databaseUrl).port) || 5432);
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    try {
      const env = { REDIS_URL: redis.url, DATABASE_URL: proxied.toString(), RACELAB_HOST_ID: ownMachine() };
      const cliRun = startCli(LONG_RUN, env);
      const runId = await runAtWork(cliRun.pid);
      const frozeAt = performance.now();
      proxy.freeze();
      const timing = await saidAndExited(cliRun, frozeAt, /^racelab: PostgreSQL has not answered for \d+\.\d s \(stopped or frozen\)/);
      console.log(
        `PostgreSQL frozen during the run: reason ${timing.reasonMs} ms after the freeze, exit ${timing.exitMs} ms after the reason`,
      );
      expect(cliRun.stdout()).toMatch(/\n {2}run failed: PostgreSQL has not answered for \d+\.\d s \(stopped or frozen\)/);
      expect(cliRun.stderr()).toContain(
        `racelab: run ${runId}: left for the next sweep (the run stays registered): could not drop schema run_${runId} (PostgreSQL has not answered`,
      );
      // Redis answered: the keys went. The schema stayed, and the run in the registry.
      const store = new Redis(redis.url);
      try {
        expect(await leftovers(store, pool, runId)).toEqual({ keys: [], schema: true });
        // So did the run's role, which goes after its schema; its Redis user went with its keys.
        expect(await usersLeft(store, pool, runId)).toEqual([`PostgreSQL role racelab_run_${runId}`]);
        expect(await registered(runId)).toBe(true);
        expect(await cleanAs({ ...env, DATABASE_URL: databaseUrl })).toMatch(/^racelab clean: /);
        expect(await leftovers(store, pool, runId)).toEqual({ keys: [], schema: false });
        expect(await usersLeft(store, pool, runId)).toEqual([]);
        expect(await registered(runId)).toBe(false);
      } finally {
        store.disconnect();
      }
    } finally {
      await proxy.close();
    }
  }, 90_000);
});

/** Waits until `value()` is not 0 and returns it. */
async function until(value: () => number): Promise<number> {
  while (value() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return value();
}
