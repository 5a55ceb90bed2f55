// What the confinement tests share: the stores' endpoints, a scratch folder per test, and a
// hostile script run as edited code is (Node's permission model to its scratch folder, a
// 128 MB heap, a scratch env) inside the walls of a confinement.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../../services/index.js';
import type { Confinement, Endpoint } from '../confinement.js';
import { spawnConfined, type Ended } from '../confinedProcess.js';
import { HEAP_MB } from '../endedWords.js';

export const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
export const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;

const endpointOf = (url: string, port: number): Endpoint => {
  const { hostname, port: given } = new URL(url);
  return { host: hostname, port: Number(given || port) };
};
/** The run's stores: the only addresses edited code may reach. */
export const STORES: Endpoint[] = [endpointOf(redisUrl, 6379), endpointOf(databaseUrl, 5432)];

/** The folder of the store clients' packages, for a script that logs in to a store. */
export const MODULES = ((entry: string) => entry.slice(0, entry.lastIndexOf(`${path.sep}node_modules${path.sep}`) + 13))(
  createRequire(import.meta.url).resolve('ioredis'),
);
/** A store client's entry file, to require by its path from a scratch folder. */
export const clientPath = (name: 'ioredis' | 'pg'): string => createRequire(import.meta.url).resolve(name);

const scratches: string[] = [];

/** A new scratch folder (removed by removeScratches). */
export async function newScratch(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'racelab-exercise-test-'));
  scratches.push(dir);
  return dir;
}

export async function removeScratches(): Promise<void> {
  await Promise.all(scratches.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export interface Hostile {
  /** The process, started; its pid is readable at once. */
  pid: number;
  ended: Promise<Ended>;
  scratch: string;
  uid: number | undefined;
}

/**
 * Writes `script` (CommonJS) into a new scratch folder and runs it as edited code runs, in
 * `confinement`'s walls. `permission: false` leaves Node's permission model out, to show what
 * the kernel alone refuses. `reads` are further folders it may read (the store clients).
 */
export async function runHostile(
  confinement: Confinement,
  script: string,
  options: { permission?: boolean; deadlineMs?: number; reads?: string[] } = {},
): Promise<Hostile> {
  const scratch = await newScratch();
  const file = path.join(scratch, 'edited.js');
  await writeFile(file, script);
  const permission = options.permission ?? true;
  const flags = permission
    ? [
        '--experimental-permission',
        // One flag a path: this node reads a comma as part of the path.
        ...[scratch, ...(options.reads ?? [])].map((dir) => `--allow-fs-read=${dir}`),
        `--allow-fs-write=${scratch}`,
        '--no-warnings',
      ]
    : [];
  const wrapped = await confinement.wrap({
    command: process.execPath,
    args: [...flags, `--max-old-space-size=${HEAP_MB}`, file],
    env: { HOME: scratch, TMPDIR: scratch, PATH: '/usr/bin:/bin' },
    cwd: scratch,
    scratch,
    stores: STORES,
  });
  const { child, ended } = spawnConfined(wrapped, { deadlineMs: options.deadlineMs ?? 30_000 });
  return { pid: child.pid!, ended, scratch, uid: wrapped.uid };
}

/** The last line a script printed, as JSON. */
export function reported<T>(ended: Ended): T {
  const line = ended.stdout.trim().split('\n').at(-1);
  if (!line) throw new Error(`the script printed nothing; stderr: ${ended.stderr.slice(0, 2000)}`);
  return JSON.parse(line) as T;
}
