import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './freePort.js';
import { probeRedis } from './probeRedis.js';
import { makeScratchDir, recordChild } from './scratchDir.js';
import { startedService, type StartedService } from './startedService.js';

/** Options for startEmbeddedRedis. */
export interface EmbeddedRedisOptions {
  /** Binary to run; default `redis-server` looked up on the PATH. */
  command?: string;
  /** How long to wait for PING to answer, in ms. */
  timeoutMs?: number;
  /** Extra redis-server arguments, e.g. ['--replicaof', '127.0.0.1', '6379'] for the labs' replicas. */
  args?: string[];
  /** Runs the server through this command line (a lab host's `ip netns exec`; the pid stays the server's). */
  wrap?: (argv: string[]) => string[];
  /** The address it is reached at, for its URL and the readiness probe; default 127.0.0.1. */
  host?: string;
  /** Added to this process's environment for the server (a preload that moves its clock: labnet/movableClock.ts). */
  env?: Record<string, string>;
}

/** Starts a throwaway redis-server on a free 127.0.0.1 port in a scratch dir (no persistence). */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions = {}): Promise<StartedService> {
  const command = options.command ?? 'redis-server';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const dir = await makeScratchDir('redis');
  const logFile = path.join(dir, 'redis.log');
  try {
    // The free port can be taken between our check and redis' bind; a retry covers that race.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const child = await spawnRedis(command, port, dir, logFile, options);
      const url = `redis://${options.host ?? '127.0.0.1'}:${port}`;
      const failure = await waitUntilReady(child, url, timeoutMs);
      if (!failure) {
        await recordChild(dir, child.pid!);
        return service(child, url, dir);
      }
      await killAndWait(child);
      const log = await readFile(logFile, 'utf8').catch(() => '');
      if (attempt < 3 && /address already in use/i.test(log)) continue;
      throw new Error(`redis-server did not start: ${failure}${log ? `; log: ${tail(log)}` : ''}`);
    }
  } catch (err) {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}

function spawnRedis(command: string, port: number, dir: string, logFile: string, options: EmbeddedRedisOptions): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--logfile',
    logFile,
    ...(options.args ?? []),
  ];
  const [file, ...argv] = options.wrap ? options.wrap([command, ...args]) : [command, ...args];
  // Logs go to a file so no pipe can fill up and stall redis.
  const child = spawn(file!, argv, { stdio: 'ignore', ...(options.env ? { env: { ...process.env, ...options.env } } : {}) });
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    // Kept for the child's lifetime: a later 'error' (e.g. a failed kill) must not go unhandled.
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new Error(`${command} not found on the PATH`) : err);
    });
  });
}

// Resolves to null once PING answers, or to why it never will.
async function waitUntilReady(child: ChildProcess, url: string, timeoutMs: number): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited(child)) return `exited with ${child.exitCode ?? child.signalCode}`;
    try {
      await probeRedis(url, 500);
      return null;
    } catch {
      if (Date.now() >= deadline) return `no answer on ${url} within ${timeoutMs} ms`;
      await sleep(50);
    }
  }
}

function service(child: ChildProcess, url: string, dir: string): StartedService {
  return startedService(url, dir, {
    stop: () => killAndWait(child),
    killSync() {
      if (!hasExited(child)) child.kill('SIGKILL');
    },
  });
}

// SIGTERM, then SIGKILL after 5 s; resolves once the process is gone.
async function killAndWait(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}
