// A workshop on one machine: N racelab servers, each its own process on a port of 127.0.0.1
// it binds itself (PORT=0, the port read from its "playground on" line: a port picked here
// and bound later could be taken in between), sharing one Redis and one PostgreSQL, behind one HAProxy on one address
// (haproxyConfig.ts says how it routes). The servers trust the proxy's X-Forwarded-For, so
// each page counts under its own address. A server that dies is reported and the proxy routes
// around it; the proxy dying ends the workshop (`ended`). stop() ends the proxy, then the
// servers (SIGTERM, SIGKILL after a grace), and removes the configuration's folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { builtScript } from '../services/builtScript.js';
import { errorReason } from '../services/errorReason.js';
import { freePort } from '../services/freePort.js';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/findServices.js';
import { waitUntilReachable } from '../services/waitUntilReachable.js';
import { runSlotsFor } from '../http/limits.js';
import { haproxyConfig, type Backend } from './haproxyConfig.js';

export interface WorkshopOptions {
  /** How many racelab servers. */
  servers: number;
  /** The proxy's port; a free one when absent. */
  port?: number;
  /** The environment the servers start from (their stores' URLs, RACELAB_POOL_SIZE, …); this process's by default. */
  env?: NodeJS.ProcessEnv;
  /** The HAProxy binary (findHaproxy). */
  haproxy: string;
  /** Where the workshop's own lines go, one at a time (a server's death, the proxy's alerts). */
  log?: (line: string) => void;
  /** How long each server and the proxy may take to answer, in ms. */
  startTimeoutMs?: number;
}

export interface WorkshopServer extends Backend {
  pid: number;
}

export interface Workshop {
  /** The one address of every page: http://127.0.0.1:<port>/ */
  url: string;
  port: number;
  servers: WorkshopServer[];
  haproxyPid: number;
  /** The folder of the proxy's configuration; gone after stop(). */
  dir: string;
  /** Resolves with the reason when the proxy ends by itself: the workshop serves nothing more. */
  ended: Promise<string>;
  /** Ends the proxy and the servers and removes `dir`; safe to call more than once. */
  stop(): Promise<void>;
}

// The build's, from a test of the sources too.
const SERVER_MAIN = builtScript(new URL('../main.js', import.meta.url));
/** A server closing its runs may take closeGraceMs (5 s) and a little more; then it is killed. */
const STOP_GRACE_MS = 8000;

/** Where HAProxy is: on the PATH, else where Debian and a source install put it (sbin is often not on a user's PATH). */
export function findHaproxy(searchPath = process.env.PATH ?? '', more = ['/usr/sbin', '/usr/local/sbin']): string | null {
  for (const dir of [...searchPath.split(path.delimiter).filter(Boolean), ...more]) {
    const candidate = path.join(dir, 'haproxy');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the next folder.
    }
  }
  return null;
}

/** A started child: its process, the last lines it wrote (for the reason it died) and its end. */
interface Child {
  name: string;
  process: ChildProcess;
  tail: string[];
  /** Told each line the child writes to stdout. */
  onStdout: Set<(line: string) => void>;
  exited: Promise<number | string>;
}

/** Starts the servers, waits for each to answer, then the proxy in front of them. */
export async function startWorkshop(options: WorkshopOptions): Promise<Workshop> {
  const log = options.log ?? ((line: string) => console.log(line));
  const timeoutMs = options.startTimeoutMs ?? 120_000;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'racelab-workshop-'));
  const children: Child[] = [];
  let stopping = false;
  const stop = once(async () => {
    stopping = true;
    await stopChildren(children);
    await rm(dir, { recursive: true, force: true });
  });
  // Nothing async runs at exit: what is left is killed and removed at once.
  const atExit = () => {
    for (const child of children) child.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', atExit);
  try {
    const backends = await startServers(options, children, timeoutMs);
    const port = options.port ?? (await freePort());
    const configFile = path.join(dir, 'haproxy.cfg');
    await writeFile(configFile, haproxyConfig(port, backends));
    const proxy = spawnChild('haproxy', options.haproxy, ['-db', '-f', configFile], process.env, (line) => log(`haproxy: ${line}`));
    children.push(proxy);
    const url = `http://127.0.0.1:${port}/`;
    await answering(proxy, `${url}healthz`, timeoutMs);
    for (const server of children.filter((c) => c !== proxy)) {
      void server.exited.then((how) => {
        if (!stopping)
          log(`server ${server.name} (pid ${server.process.pid}) ${exitWords(how)}; the proxy routes its new pages to the others`);
      });
    }
    const ended = proxy.exited.then((how) => `HAProxy ${exitWords(how)}${lastWords(proxy)}`);
    const servers = backends.map((b, i) => ({ ...b, pid: children[i]!.process.pid! }));
    const stopAll = async () => {
      await stop();
      process.removeListener('exit', atExit);
    };
    return { url, port, servers, haproxyPid: proxy.process.pid!, dir, ended, stop: stopAll };
  } catch (error) {
    await stop();
    process.removeListener('exit', atExit);
    throw error;
  }
}

/** Starts every server on a port it binds itself and waits until each answers /healthz. */
async function startServers(options: WorkshopOptions, children: Child[], timeoutMs: number): Promise<Backend[]> {
  const base = options.env ?? process.env;
  // A server's own lines are kept for the reason it died; its errors are shown as they come.
  const log = options.log ?? ((line: string) => console.error(line));
  const started: Child[] = [];
  for (let i = 1; i <= options.servers; i++) {
    const name = `s${i}`;
    const env = {
      ...base,
      PORT: '0',
      HOST: '127.0.0.1',
      // One Redis and one PostgreSQL for all: a server left to find its own could start an embedded one.
      REDIS_URL: base.REDIS_URL || DEFAULT_REDIS_URL,
      DATABASE_URL: base.DATABASE_URL || DEFAULT_DATABASE_URL,
      RACELAB_TRUSTED_PROXIES: '127.0.0.1',
      RACELAB_SERVER_NAME: name,
      // The machine's cores shared between the servers, unless told otherwise.
      RACELAB_RUN_SLOTS: base.RACELAB_RUN_SLOTS || String(runSlotsFor(os.availableParallelism(), options.servers)),
    };
    const child = spawnChild(name, process.execPath, [SERVER_MAIN], env, (line) => log(`${name}: ${line}`));
    children.push(child);
    started.push(child);
  }
  return Promise.all(
    started.map(async (child) => {
      const port = await announcedPort(child, timeoutMs);
      await answering(child, `http://127.0.0.1:${port}/healthz`, timeoutMs);
      return { name: child.name, port };
    }),
  );
}

/** The port a server bound, from the line it writes once it listens ("racelab: playground on http://127.0.0.1:<port>"). */
async function announcedPort(child: Child, timeoutMs: number): Promise<number> {
  let listener: ((line: string) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const announced = new Promise<number>((resolve) => {
    listener = (line) => {
      const port = /playground on http:\/\/[^/]*:(\d+)/.exec(line)?.[1];
      if (port) resolve(Number(port));
    };
    child.onStdout.add(listener);
  });
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${child.name} did not listen within ${timeoutMs} ms${lastWords(child)}`)), timeoutMs);
  });
  const died = child.exited.then((how): never => {
    throw new Error(`${child.name} ${exitWords(how)} before it listened${lastWords(child)}`);
  });
  try {
    return await Promise.race([announced, late, died]);
  } finally {
    child.onStdout.delete(listener!);
    clearTimeout(timer);
    died.catch(() => undefined);
  }
}

/** Spawns a child in a process group of its own, so that a terminal's Ctrl-C reaches only the launcher, which stops it in order. */
function spawnChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, onError: (line: string) => void): Child {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const tail: string[] = [];
  const onStdout = new Set<(line: string) => void>();
  const keep = (line: string, show: boolean) => {
    if (!line.trim()) return;
    tail.push(line);
    if (tail.length > 20) tail.shift();
    if (show) onError(line);
    else for (const listener of onStdout) listener(line);
  };
  createInterface({ input: child.stdout }).on('line', (line) => keep(line, false));
  createInterface({ input: child.stderr }).on('line', (line) => keep(line, true));
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => resolve(errorReason(error)));
    child.once('exit', (code, signal) => resolve(signal ?? code ?? 0));
  });
  return { name, process: child, tail, onStdout, exited };
}

/** Waits until `url` answers 200, failing at once with the child's last words when it ends first. */
async function answering(child: Child, url: string, timeoutMs: number): Promise<void> {
  const probe = async (target: string) => {
    const response = await fetch(target, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    if (response.status !== 200) throw new Error(`${target} answered ${response.status}`);
  };
  const died = child.exited.then((how) => {
    throw new Error(`${child.name} ${exitWords(how)} before it answered${lastWords(child)}`);
  });
  // Once it answered, its end is the workshop's business (reported there), not this wait's.
  died.catch(() => undefined);
  try {
    await Promise.race([waitUntilReachable(probe, url, timeoutMs), died]);
  } catch (error) {
    throw new Error(`${child.name}: ${errorReason(error)}`);
  }
}

/** SIGTERM to the proxy and every server, SIGKILL to whichever has not ended after the grace. */
async function stopChildren(children: readonly Child[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) return;
      child.process.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
      if ((await Promise.race([child.exited, late])) === 'late') {
        child.process.kill('SIGKILL');
        await child.exited;
      }
      clearTimeout(timer);
    }),
  );
}

function exitWords(how: number | string): string {
  if (typeof how === 'number') return `exited with code ${how}`;
  return how.startsWith('SIG') ? `was ended by ${how}` : `could not start (${how})`;
}

function lastWords(child: Child): string {
  return child.tail.length > 0 ? `: ${child.tail.slice(-3).join(' | ')}` : '';
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
