// A PgBouncer of a run's own, between its workers and PostgreSQL: Debian's `pgbouncer` binary
// (RACELAB_PGBOUNCER names another), started on a free 127.0.0.1 port with its config in a
// scratch dir, in the pool mode and size the run asks for, and stopped with the run. Where
// the binary is not there, `pgbouncerMissing` says what to install instead of imitating it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { chown, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './freePort.js';
import { makeScratchDir, recordChild } from './scratchDir.js';
import { startedService, type StartedService } from './startedService.js';
import { waitUntilReachable } from './waitUntilReachable.js';

/** The binary racelab runs: RACELAB_PGBOUNCER, else Debian's. */
export function pgbouncerBinary(): string {
  return process.env.RACELAB_PGBOUNCER || '/usr/sbin/pgbouncer';
}

/** Why no PgBouncer can be started on this machine (what to install), or null when it can. */
export function pgbouncerMissing(binary = pgbouncerBinary()): string | null {
  try {
    accessSync(binary, constants.X_OK);
    return null;
  } catch {
    return `needs PgBouncer, not found at ${binary}: install it (apt-get install pgbouncer) or set RACELAB_PGBOUNCER to its binary`;
  }
}

/** The installed PgBouncer's version ("1.18.0", from its `--version`); null where there is none. */
export function pgbouncerVersion(binary = pgbouncerBinary()): string | null {
  if (pgbouncerMissing(binary)) return null;
  const said = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return /^PgBouncer (\S+)/m.exec(said)?.[1] ?? null;
}

export interface PgbouncerOptions {
  /** The PostgreSQL every client is sent to, with the user and password PgBouncer logs in as. */
  databaseUrl: string;
  poolMode: 'session' | 'transaction';
  /** Server connections per database and user: 1 makes every client share one backend. */
  poolSize: number;
}

/** The config: one database, `pooled`, any client user let in and logged in as the URL's user. */
export function pgbouncerConfig(options: PgbouncerOptions, port: number, dir: string): string {
  const url = new URL(options.databaseUrl);
  const server = [
    `host=${url.hostname}`,
    `port=${url.port || '5432'}`,
    `dbname=${decodeURIComponent(url.pathname.slice(1))}`,
    `user=${decodeURIComponent(url.username || 'postgres')}`,
    ...(url.password ? [`password=${decodeURIComponent(url.password)}`] : []),
  ].join(' ');
  return `[databases]
pooled = ${server}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = any
pool_mode = ${options.poolMode}
default_pool_size = ${options.poolSize}
max_client_conn = 50
ignore_startup_parameters = extra_float_digits,options,application_name
logfile = ${path.join(dir, 'pgbouncer.log')}
pidfile = ${path.join(dir, 'pgbouncer.pid')}
`;
}

/** Starts a PgBouncer; its URL reaches the database `pooled` through it. */
export async function startPgbouncer(options: PgbouncerOptions, timeoutMs = 10_000): Promise<StartedService> {
  const missing = pgbouncerMissing();
  if (missing) throw new Error(missing);
  const dir = await makeScratchDir('pgbouncer');
  const port = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  await writeFile(config, pgbouncerConfig(options, port, dir), { mode: 0o600 });
  const user = await runAsUser(dir, config);
  const child = spawn(pgbouncerBinary(), [...(user ? ['-u', user] : []), config], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const service = startedService(`postgres://racelab@127.0.0.1:${port}/pooled`, dir, {
    stop: () => stopChild(child, exited),
    killSync: () => void child.kill('SIGKILL'),
  });
  try {
    if (child.pid === undefined) throw new Error(`could not start ${pgbouncerBinary()}`);
    await recordChild(dir, child.pid);
    await waitUntilReachable(probePooler, service.url, timeoutMs);
    return service;
  } catch (error) {
    await service.stop();
    throw error;
  }
}

/**
 * PgBouncer refuses to run as root: as root it runs as the OS user `postgres` (or `nobody`),
 * which is given its scratch dir and config (the config may hold a password: no one else reads it).
 */
async function runAsUser(dir: string, config: string): Promise<string | null> {
  if (process.getuid?.() !== 0) return null;
  const users = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'));
  const entry = users.find((u) => u[0] === 'postgres') ?? users.find((u) => u[0] === 'nobody');
  if (!entry) throw new Error('PgBouncer will not run as root, and there is no OS user postgres or nobody to run it as');
  const [name, , uid, gid] = entry;
  for (const file of [dir, config]) await chown(file, Number(uid), Number(gid));
  return name!;
}

async function probePooler(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await exited;
}
