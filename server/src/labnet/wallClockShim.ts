// The wall clock shim (wallClockShim.c), built from its source with the machine's C compiler
// the first time a process asks for it, into a cache folder named after the source's hash:
// every later process, and every later version with the same source, finds it there. It is
// compiled to a name of its own and renamed into place, so two servers building at once
// both end up with a whole library. No compiler, or a compile that fails: no shim, and why.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorReason } from '../services/errorReason.js';
import { isAlive } from '../services/pids.js';

/** The shim's source, shipped as source: from src/ or dist/ alike, the package's src/ folder. */
export const SHIM_SOURCE = fileURLToPath(new URL('../../src/labnet/wallClockShim.c', import.meta.url));
/** The variable that names the clock file to the shim. */
export const CLOCK_FILE_ENV = 'RACELAB_CLOCK_FILE';

const LIBRARY = 'wallClockShim.so';
const FLAGS = ['-shared', '-fPIC', '-O2'];
const COMPILERS = ['cc', 'gcc'];
/** A compile under way: `<library>.<pid>-<random>.tmp`, the pid of the process compiling. */
const PARTIAL = /^wallClockShim\.so\.(\d+)-[0-9a-f]+\.tmp$/;

export type ShimBuild = { library: string } | { why: string };

export interface ShimOptions {
  source?: string;
  /** Where the cache folders go; default the machine's temp folder. */
  cacheRoot?: string;
  /** The compilers tried in turn; the first one found builds it. */
  compilers?: string[];
}

/** The shim's library, from the cache or compiled now (once per source, per machine). */
export function buildWallClockShim(options: ShimOptions = {}): ShimBuild {
  const source = options.source ?? SHIM_SOURCE;
  let text: Buffer;
  try {
    text = readFileSync(source);
  } catch {
    return { why: `the wall clock shim's source is missing (${path.basename(source)})` };
  }
  const hash = createHash('sha256').update(FLAGS.join(' ')).update('\0').update(text).digest('hex').slice(0, 16);
  const dir = path.join(options.cacheRoot ?? os.tmpdir(), `racelab-clockshim-${hash}`);
  const library = path.join(dir, LIBRARY);
  // LD_PRELOAD splits its list at spaces and colons.
  if (/[\s:]/.test(library)) return { why: `the temp folder's path (${dir}) holds a space or a colon, which LD_PRELOAD cannot take` };
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { why: `cannot make the shim's folder: ${errorReason(error)}` };
  }
  // The library is loaded into a process of ours: only a folder and a file of this user's own, no one else can write, will do.
  if (!onlyMine(dir, true)) return { why: `${dir} is not this user's own folder, writable by no one else` };
  if (onlyMine(library, false)) return { library };
  removePartials(dir);
  const partial = `${library}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const compilers = options.compilers ?? COMPILERS;
  for (const compiler of compilers) {
    try {
      execFileSync(compiler, [...FLAGS, '-o', partial, source], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
      renameSync(partial, library);
      return { library };
    } catch (error) {
      rmSync(partial, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // not installed: the next one
      // A compiler that ran and failed speaks for the source: another would fail alike.
      const lines = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n') ?? [];
      const said = lines.find((line) => line.includes('error')) ?? lines[0];
      return { why: `${compiler} failed to build the wall clock shim: ${said || errorReason(error)}` };
    }
  }
  return { why: `no C compiler (${compilers.join(', ')}) to build the wall clock shim` };
}

/** Whether `file` (a folder when `dir`) is there, this user's own, and writable by no one else. */
function onlyMine(file: string, dir: boolean): boolean {
  try {
    const stat = lstatSync(file);
    const mine = process.getuid === undefined || stat.uid === process.getuid();
    return (dir ? stat.isDirectory() : stat.isFile()) && mine && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Removes the partial libraries of compiles whose process died before renaming them. */
function removePartials(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = PARTIAL.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) rmSync(path.join(dir, name), { force: true });
  }
}

/** The environment that starts a process under the shim, its clock moved by what `clockFile` holds. */
export function wallClockEnv(library: string, clockFile: string): Record<string, string> {
  return { LD_PRELOAD: library, [CLOCK_FILE_ENV]: clockFile };
}

/** True once process `pid` has the shim loaded and the clock file mapped: its clock follows the file. */
export function followsClockFile(pid: number, library: string, clockFile: string): boolean {
  try {
    // The kernel lists each mapped file by its real path.
    const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
    return maps.includes(realpathSync(library)) && maps.includes(realpathSync(clockFile));
  } catch {
    return false;
  }
}
