// The wall clock shim (wallClockShim.c), a library preloaded into one process to move its
// wall clock, built with the machine's C compiler once per source (preloadLibrary.ts).
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildPreloadLibrary, type PreloadBuild, type PreloadOptions } from './preloadLibrary.js';

/** The shim's source, shipped as source: from src/ or dist/ alike, the package's src/ folder. */
export const SHIM_SOURCE = fileURLToPath(new URL('../../src/labnet/wallClockShim.c', import.meta.url));
/** The variable that names the clock file to the shim. */
export const CLOCK_FILE_ENV = 'RACELAB_CLOCK_FILE';

export type ShimBuild = PreloadBuild;
export type ShimOptions = Partial<Pick<PreloadOptions, 'source' | 'cacheRoot' | 'compilers'>>;

/** The shim's library, from the cache or compiled now (once per source, per machine). */
export function buildWallClockShim(options: ShimOptions = {}): ShimBuild {
  return buildPreloadLibrary({ source: SHIM_SOURCE, name: 'wallClockShim', prefix: 'clockshim', what: 'the wall clock shim', ...options });
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
