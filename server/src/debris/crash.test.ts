// A server killed with SIGKILL mid-run leaves debris: its runs' Redis keys, schemas and own
// store users (a Redis ACL user, a PostgreSQL role), a worker stopped (SIGSTOP) in a planned
// stall that can never notice its parent is gone, and the failover lab's redis-servers and
// sentinels. The next start finds and removes all of it before it serves, and `npm run clean` does the same for a machine that will not start it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { alive, connectClient, isEvent, leftovers, until, usersLeft, workerPids, type TestClient } from '../testing/wsClient.js';
import { commandLine } from '../services/pids.js';
import { childrenOf, processState } from '../testing/processTable.js';
import { startServerProcess, type ServerProcess } from '../testing/serverProcess.js';
import { OWNED_DIR } from './ownedProcesses.js';
import { execFileSync } from 'node:child_process';
import { detectLabMechanisms, MECHANISM } from '../labnet/mechanisms.js';
import { NAMESPACE_PREFIX } from '../labnet/labHost.js';
import { racelabNamespaces } from './namespaces.js';
import { ROOT_ON_LINUX } from '../testing/machine.js';

const clean = fileURLToPath(new URL('../../dist/clean.js', import.meta.url));
const servers: ChildProcess[] = [];
// Runs registered under a name of this test's own: other test files' playgrounds, sweeping
// at their start, leave them to the processes under test.
const env = { ...process.env, RACELAB_HOST_ID: `crash-test-${randomBytes(4).toString('hex')}` };
const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 2 });
afterAll(async () => {
  for (const server of servers) server.kill('SIGKILL');
  redis.disconnect();
  await pool.end();
});

const startServer = (): Promise<ServerProcess> => startServerProcess(env, servers);

interface Started {
  client: TestClient;
  runId: string;
  /** The event waited for. */
  at: RunEvent;
}

/** Starts a run from a page of its own and waits for the event that says it is where we want it. */
async function startRun(
  address: string,
  scenario: string,
  variant: string,
  waitFor: Parameters<typeof isEvent>[0],
  params = {},
): Promise<Started> {
  const client = await connectClient(`${address.replace('http', 'ws')}/ws`);
  await client.next((m) => m.type === 'hello');
  const { runId } = await client.startRun({ scenario, variant, params }, 60_000);
  const at = await client.next(isEvent(waitFor, runId), 60_000);
  return { client, runId, at: at.type === 'run-event' ? at.event : (undefined as never) };
}

const events = (client: TestClient) => client.inbox.flatMap((m) => (m.type === 'run-event' ? [m.event] : []));
/** The lab processes of a server: the redis-servers and sentinels it started. */
/** The process that made a scratch folder (services/scratchDir.ts), or null when it is gone. */
const ownerOf = (dir: string): number | null => {
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'owner.json'), 'utf8')) as { owner: number }).owner;
  } catch {
    return null;
  }
};
const labChildren = (serverPid: number): number[] =>
  childrenOf(serverPid)
    .filter((c) => c.command.includes('redis-server'))
    .map((c) => c.pid);

describe('a server killed mid-run', () => {
  it('leaves keys, schemas, a stopped worker and lab processes; the next start removes them all before it serves', async () => {
    const first = await startServer();
    const serverPid = first.server.pid!;
    // A planned stall (worker-1 SIGSTOPped for 10 s), the failover lab, and a long job.
    const stalled = await startRun(first.address, 'fencing', 'lease-only', 'process-paused', { pauseMs: 10_000 });
    const lab = await startRun(first.address, 'failover', 'plain-lock', 'lease-acquired', { workMs: 5000, downAfterMs: 10_000 });
    const long = await startRun(first.address, 'duplicate-job', 'token-lua', 'work-started', { workMs: 8000 });
    const runs = [stalled, lab, long];
    const workers = runs.flatMap((r) => workerPids(events(r.client)));
    const labPids = labChildren(serverPid);
    // Every process the server recorded as its own and not yet gone: the runs' live workers and the warm ones.
    const owned = (
      JSON.parse(readFileSync(path.join(OWNED_DIR, `${serverPid}.json`), 'utf8')) as { children: { pid: number }[] }
    ).children.map((c) => c.pid);
    expect(owned).toEqual(expect.arrayContaining(workers.filter(alive)));

    first.server.kill('SIGKILL');
    await new Promise((resolve) => first.server.once('exit', resolve));
    // The debris is there: the stopped worker stays stopped, the lab runs on, keys and schemas stay.
    const pausedPid = workerPids(events(stalled.client).filter((e) => e.workerId === stalled.at.workerId));
    expect(pausedPid.map(processState)).toEqual(['T']);
    expect(labPids.length).toBeGreaterThan(0);
    expect(labPids.every(alive)).toBe(true);
    for (const run of runs) expect((await leftovers(redis, pool, run.runId)).schema).toBe(true);
    for (const run of runs) expect(await usersLeft(redis, pool, run.runId)).toHaveLength(2);

    const restartedAt = performance.now();
    const second = await startServer();
    const took = performance.now() - restartedAt;
    console.log(`restart after SIGKILL: clean and listening ${Math.round(took)} ms after the start`);
    for (const run of runs) expect(await leftovers(redis, pool, run.runId)).toEqual({ keys: [], schema: false });
    for (const run of runs) expect(await usersLeft(redis, pool, run.runId)).toEqual([]);
    // Workers that were not stopped saw their parent go (IPC disconnect) and exit by themselves.
    await until(() => ![...owned, ...workers].some(alive), 'every worker gone', 5000).catch(() => undefined);
    const describe = (pid: number): string => `${pid} ${processState(pid)} ${commandLine(pid)}`;
    expect([...owned, ...workers].filter(alive).map(describe), second.output()).toEqual([]);
    expect(labPids.filter(alive)).toEqual([]);
    expect(second.output()).toMatch(
      /removed what earlier runs left: 3 runs of processes that no longer run, \d+ schemas, \d+ Redis keys, 1 process \(worker process \(pid \d+\)/,
    );
    expect(second.output()).toMatch(/, \d+ runs' PostgreSQL roles, \d+ runs' Redis ACL users\n/);
    second.server.kill('SIGINT');
    await new Promise((resolve) => second.server.once('exit', resolve));
  }, 180_000);

  it('npm run clean removes the same when no server starts again', async () => {
    const first = await startServer();
    // A lease as long as the stall: its key is still there when clean runs, however slowly it starts.
    const stalled = await startRun(first.address, 'fencing', 'lease-only', 'process-paused', { pauseMs: 10_000, leaseMs: 10_000 });
    const workers = workerPids(events(stalled.client));
    first.server.kill('SIGKILL');
    await new Promise((resolve) => first.server.once('exit', resolve));
    expect(workers.some(alive)).toBe(true);
    expect(await usersLeft(redis, pool, stalled.runId)).toHaveLength(2);

    const output = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [clean], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.once('exit', () => resolve(text));
    });
    expect(output).toMatch(
      /racelab clean: removed what earlier runs left: 1 run of a process that no longer runs, \d+ schemas?, \d+ Redis keys?, 1 process \(worker process \(pid \d+\)/,
    );
    expect(await leftovers(redis, pool, stalled.runId)).toEqual({ keys: [], schema: false });
    expect(await usersLeft(redis, pool, stalled.runId)).toEqual([]);
    expect(workers.filter(alive)).toEqual([]);
  }, 120_000);

  it('with lab hosts: its namespaces, their links, its libfaketime workers, its redis-server under the wall clock shim and its clock file are gone after the next start', async () => {
    const real = detectLabMechanisms();
    const first = await startServer();
    const serverPid = first.server.pid!;
    // Redlock's split (the workers in namespaces, cut by nftables) with node-3's clock jumped (under the shim), worker-1
    // stopped in its pause; cron-clock-skew's late nodes under libfaketime.
    const split = await startRun(first.address, 'redlock', 'redlock', 'process-paused', {
      reach: 'split',
      pauseMs: 10_000,
      leaseMs: 2000,
      clockJumpMs: 1000,
    });
    const late = await startRun(first.address, 'cron-clock-skew', 'release-when-done', 'clock-skewed', { skewMs: 6000 }); // node-2 waits 6 s to fire
    const staged = events(split.client)
      .filter((e) => e.type === 'fault-staged')
      .map((e) => e.type === 'fault-staged' && e.mechanism);
    const namespaces = (await racelabNamespaces()).filter((n) => n.startsWith(`${NAMESPACE_PREFIX}${serverPid}-`));
    const links = (): string[] =>
      execFileSync('ip', ['-o', 'link', 'show'])
        .toString()
        .split('\n')
        .filter((line) => namespaces.some((n) => line.includes(`link-netns ${n}`)));
    const faked = workerPids(events(late.client)).filter(
      (pid) => alive(pid) && /libfaketime/.test(readFileSync(`/proc/${pid}/environ`, 'utf8')),
    );
    // A redis-server writes its title over its environment: the shim is found among what it has mapped.
    const shimmed = labChildren(serverPid).filter((pid) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('wallClockShim.so'));
    const clockFolders = (): string[] =>
      readdirSync(os.tmpdir()).filter((name) => name.startsWith('racelab-clock-') && ownerOf(path.join(os.tmpdir(), name)) === serverPid);
    // Root on Linux gives the labs namespaces (labHost.test.ts holds the machine to it); a
    // namespace and its link per redlock worker there, none elsewhere.
    expect(real.namespaces).toBe(ROOT_ON_LINUX);
    const hosts = real.namespaces ? 2 : 0;
    expect(namespaces).toHaveLength(hosts);
    expect(links()).toHaveLength(hosts);
    expect(new Set(staged)).toEqual(
      new Set([
        real.namespaces && real.nftables ? MECHANISM.nftables : MECHANISM.proxy,
        real.wallClockShim ? MECHANISM.wallClockShim : MECHANISM.simulatedExpiry,
      ]),
    );
    expect(faked.length > 0).toBe(real.faketime !== null);
    expect([shimmed.length, clockFolders().length]).toEqual(real.wallClockShim ? [1, 1] : [0, 0]);

    first.server.kill('SIGKILL');
    await new Promise((resolve) => first.server.once('exit', resolve));
    expect((await racelabNamespaces()).filter((n) => namespaces.includes(n))).toEqual(namespaces);
    // The shimmed node runs on, its clock file beside it, until the next start's sweep.
    expect(shimmed.filter(alive)).toEqual(shimmed);
    expect(clockFolders()).toHaveLength(shimmed.length);

    const second = await startServer();
    expect(await racelabNamespaces()).toEqual(expect.not.arrayContaining(namespaces.length > 0 ? namespaces : ['none']));
    expect(links()).toEqual([]);
    await until(() => !faked.some(alive), 'every faked worker gone', 5000).catch(() => undefined);
    expect(faked.filter(alive)).toEqual([]);
    expect(shimmed.filter(alive)).toEqual([]);
    expect(clockFolders()).toEqual([]);
    for (const run of [split, late]) expect(await leftovers(redis, pool, run.runId)).toEqual({ keys: [], schema: false });
    second.server.kill('SIGINT');
    await new Promise((resolve) => second.server.once('exit', resolve));
  }, 120_000);
});
