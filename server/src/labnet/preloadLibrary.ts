// A small C library preloaded into a process (LD_PRELOAD), built from its source with the
// machine's C compiler the first time a process asks for it, into a cache folder named after
// the source's hash: every later process, and every later version with the same source, finds
// it there. It is compiled to a name of its own and renamed into place, so two processes
// building at once both end up with a whole library. No compiler, or a compile that fails: no
// library, and why. The wall clock shim (wallClockShim.ts) is one; the browser tests' netlink
// shim (netlinkShim.ts) another.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorReason } from '../services/errorReason.js';
import { isAlive } from '../services/pids.js';

const FLAGS = ['-shared', '-fPIC', '-O2'];
const COMPILERS = ['cc', 'gcc'];

export type PreloadBuild = { library: string } | { why: string };

export interface PreloadOptions {
  /** The C source. */
  source: string;
  /** The library's file name, without `.so`; its cache folder is `racelab-<prefix>-<hash>`. */
  name: string;
  prefix: string;
  /** What it is, in the reasons given when there is none ("the wall clock shim"). */
  what: string;
  /** Where the cache folders go; default the machine's temp folder. */
  cacheRoot?: string;
  /** The compilers tried in turn; the first one found builds it. */
  compilers?: string[];
}

/** The library, from the cache or compiled now (once per source, per machine). */
export function buildPreloadLibrary(options: PreloadOptions): PreloadBuild {
  const { source, what } = options;
  let text: Buffer;
  try {
    text = readFileSync(source);
  } catch {
    return { why: `${what}'s source is missing (${path.basename(source)})` };
  }
  const hash = createHash('sha256').update(FLAGS.join(' ')).update('\0').update(text).digest('hex').slice(0, 16);
  const dir = path.join(options.cacheRoot ?? os.tmpdir(), `racelab-${options.prefix}-${hash}`);
  const library = path.join(dir, `${options.name}.so`);
  // LD_PRELOAD splits its list at spaces and colons.
  if (/[\s:]/.test(library)) return { why: `the temp folder's path (${dir}) holds a space or a colon, which LD_PRELOAD cannot take` };
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { why: `cannot make the folder of ${what}: ${errorReason(error)}` };
  }
  // The library is loaded into a process of ours: only a folder and a file of this user's own, no one else can write, will do.
  if (!onlyMine(dir, true)) return { why: `${dir} is not this user's own folder, writable by no one else` };
  if (onlyMine(library, false)) return { library };
  removePartials(dir, options.name);
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
      return { why: `${compiler} failed to build ${what}: ${said || errorReason(error)}` };
    }
  }
  return { why: `no C compiler (${compilers.join(', ')}) to build ${what}` };
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
function removePartials(dir: string, library: string): void {
  const partial = new RegExp(`^${library}\\.so\\.(\\d+)-[0-9a-f]+\\.tmp$`);
  for (const name of readdirSync(dir)) {
    const pid = partial.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) rmSync(path.join(dir, name), { force: true });
  }
}
