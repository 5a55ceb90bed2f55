// The worker processes of a run of edited code: never the warm pool's (they are shared, and
// connected as the server), but fresh ones started for that run alone, from the unbundled
// built worker entry, under Node's permission model: they read only the built server and
// shared code, node_modules and the run's scratch folder, write only that folder, start no
// process and no worker thread; their heap is capped; their environment is made from
// nothing but their store URLs, which carry the run's own users, never the server's secrets.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';
import { createInterface } from 'node:readline';
import { own } from '../debris/ownedProcesses.js';
import { endedWords } from './endedWords.js';
import { builtScript } from '../services/builtScript.js';
import type { FromWorker, WorkerProcess } from '../worker/ipc.js';
import { exerciseConfinement, storesOf, type Endpoint } from './confinement.js';

/** A command line and its whole environment: what the OS-level confinement wraps. */
export interface WorkerCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Where one worker of an edited run connects, and how a lab would start it (a namespace, a preloaded library). */
export interface ExerciseLaunch {
  redisUrl: string;
  databaseUrl: string;
  /** The run's own services beside the stores (a token provider, a Sentinel): its network rule lets the worker reach them too. */
  reaches?: Endpoint[];
  /** Folders of the run's own (its setup's) the worker may read and write besides its scratch. */
  folders?: string[];
  wrap?: (argv: string[]) => string[];
  env?: Record<string, string>;
}

/** The heap of an edited run's worker, in MB: a run needs a few; a `while (true)` allocation dies here, not the machine. */
export const EXERCISE_HEAP_MB = 128;

/** The unbundled worker entry: the bundle holds no edited module, and its modules are the ones an edited one imports. */
const WORKER_MAIN = builtScript(new URL('../worker/workerMain.js', import.meta.url));
const SERVER_ROOT = dirname(dirname(dirname(WORKER_MAIN)));
const SHARED_ROOT = dirname(dirname(realpathSync(createRequire(import.meta.url).resolve('@racelab/shared'))));

/** Every node_modules folder a module of the server may resolve a package from, and the package.json files on the way. */
function resolutionPaths(from: string): string[] {
  const paths: string[] = [];
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) paths.push(`${join(dir, 'node_modules')}/*`);
    if (existsSync(join(dir, 'package.json'))) paths.push(join(dir, 'package.json'));
    if (dir === parse(dir).root) return paths;
  }
}

/** What an edited run's worker may read: the built code, its packages, the scratch folder; nothing else. */
export function readablePaths(scratch: string): string[] {
  const scenarioFolders = (process.env.RACELAB_SCENARIOS ?? '').split(':').filter(Boolean);
  return [
    `${join(SERVER_ROOT, 'dist')}/*`,
    `${join(SHARED_ROOT, 'dist')}/*`,
    join(SHARED_ROOT, 'package.json'),
    ...resolutionPaths(SERVER_ROOT),
    ...scenarioFolders.map((folder) => `${folder}/*`),
    `${scratch}/*`,
  ];
}

/**
 * The one place an edited run's worker command is made: node, the permission model's flags,
 * the heap cap, the entry, and an environment built from scratch. The OS-level confinement
 * (a user of its own, a network rule, prlimit) wraps what this returns.
 */
export function exerciseWorkerCommand(scratch: string, launch: ExerciseLaunch): WorkerCommand {
  const args = [
    '--experimental-permission',
    // One flag a path: Node 20 honours only the first wildcard of a comma-separated list.
    ...readablePaths(scratch).map((path) => `--allow-fs-read=${path}`),
    `--allow-fs-write=${scratch}/*`,
    ...(launch.folders ?? []).flatMap((folder) => [`--allow-fs-read=${folder}/*`, `--allow-fs-write=${folder}/*`]),
    // The heap cap, and V8's own young generation: with the 16 MB semi-space the pool's workers
    // start with (worker/entry.ts), under this cap, V8 failed to promote young objects ("young
    // object promotion failed") at a 20–30 MB heap in one of stalled-job's bullmq workers.
    `--max-old-space-size=${EXERCISE_HEAP_MB}`,
    '--no-warnings', // the permission model's "experimental" warning, on every start
    WORKER_MAIN,
  ];
  const env: Record<string, string> = {
    RACELAB_REDIS_URL: launch.redisUrl,
    RACELAB_DATABASE_URL: launch.databaseUrl,
    ...(process.env.RACELAB_SCENARIOS ? { RACELAB_SCENARIOS: process.env.RACELAB_SCENARIOS } : {}),
    ...launch.env,
  };
  if (!launch.wrap) return { command: process.execPath, args, env };
  const [command, ...wrapped] = launch.wrap([process.execPath, ...args]);
  return { command: command!, args: wrapped, env };
}

/** How long an edited run's worker may take to say it is ready, in ms: a start under the permission model on a busy machine (over 30 s seen at a load of 10 on 2 cores). */
const READY_WITHIN_MS = 60_000;

/** Starts one worker per launch for a run of edited code; all ready, or none left running. */
export async function startExerciseWorkers(
  scratch: string,
  launches: ExerciseLaunch[],
  redact: (text: string) => string,
): Promise<WorkerProcess[]> {
  const started = await Promise.allSettled(launches.map(async (launch) => startOne(await confinedWorkerCommand(scratch, launch), redact)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const s of started) if (s.status === 'fulfilled') s.value.kill('SIGKILL');
    throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  }
  return started.map((s) => (s as PromiseFulfilledResult<WorkerProcess>).value);
}

/**
 * The worker's command inside the walls the machine allows (confinement.ts: its own uid, the
 * stores only, prlimit's limits), inside what its lab wraps it in: a namespace is entered as
 * root, and the command drops to its uid within it.
 */
export async function confinedWorkerCommand(scratch: string, launch: ExerciseLaunch): Promise<WorkerCommand & { release(): void }> {
  const plain = exerciseWorkerCommand(scratch, { ...launch, wrap: undefined });
  const reached = [...storesOf(launch), ...(launch.reaches ?? [])];
  const walls = await exerciseConfinement(storesOf(launch));
  const confined = await walls.wrap({ ...plain, cwd: scratch, scratch, folders: launch.folders ?? [], stores: reached });
  const { argv, env } = preloadAfterTheWalls([confined.command, ...confined.args], confined.env as Record<string, string>);
  const [command, ...args] = launch.wrap ? launch.wrap(argv) : argv;
  return { command: command!, args, env, release: confined.release };
}

/**
 * A preloaded library (a lab's libfaketime) given to node alone, once its uid is dropped: preloaded
 * into the root wrappers too, libfaketime makes a semaphore in the pid's name as root, and node,
 * the same pid under its own uid, is refused it and exits.
 */
function preloadAfterTheWalls(argv: string[], env: Record<string, string>): { argv: string[]; env: Record<string, string> } {
  const node = argv.indexOf(process.execPath);
  if (!env.LD_PRELOAD || node <= 0) return { argv, env };
  const moved = Object.entries(env).filter(([name]) => name === 'LD_PRELOAD' || name.startsWith('FAKETIME'));
  const rest = Object.fromEntries(Object.entries(env).filter(([name]) => !moved.some(([m]) => m === name)));
  return { argv: [...argv.slice(0, node), '/usr/bin/env', ...moved.map(([n, v]) => `${n}=${v}`), ...argv.slice(node)], env: rest };
}

function startOne(
  { command, args, env, release }: WorkerCommand & { release(): void },
  redact: (text: string) => string,
): Promise<WorkerProcess> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  // Reaped by then: its uid is free for the next process.
  child.once('exit', release);
  child.once('error', release);
  own(child, 'exercise worker process'); // stopped by the next start if this server dies without doing it
  const lines: string[] = [];
  // The last lines it wrote: what node says as it dies (out of memory, refused) names the end.
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (lines.length < 20) lines.push(line);
    tail.push(line);
    if (tail.length > 40) tail.shift();
    process.stderr.write(`${redact(line)}\n`);
  });
  Object.assign(child, {
    endedBecause: () => endedWords({ code: child.exitCode, signal: child.signalCode, text: tail.join('\n') }),
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`an exercise worker did not start within ${READY_WITHIN_MS / 1000} s`));
    }, READY_WITHIN_MS);
    const onMessage = (message: FromWorker): void => {
      if (message.kind !== 'ready') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(child);
    };
    const onExit = (code: number | null, signal: string | null): void => {
      clearTimeout(timer);
      const said = redact(
        lines
          .filter((l) => !/^\s+at /.test(l))
          .join(' ')
          .slice(0, 500),
      );
      reject(new Error(`an exercise worker exited before it was ready (code ${code}, signal ${signal})${said ? `: ${said}` : ''}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
