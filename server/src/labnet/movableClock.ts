// A wall clock that one process runs on and another moves: a clock file (clockFile.ts) in a
// private scratch folder of its own, and the environment that starts a process under the
// wall clock shim reading it (wallClockShim.ts). The folder goes with close(), with
// closeSync() on this process's exit, and after a crash with the next start's sweep
// (services/scratchDir.ts's reapOrphans).
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { makeScratchDir } from '../services/scratchDir.js';
import { createClockFile, readClockOffsetMs } from './clockFile.js';
import { followsClockFile, wallClockEnv } from './wallClockShim.js';

export interface MovableClock {
  /** The clock file: writing it moves the clock (clockFile.ts). */
  file: string;
  /** What the process that runs on this clock is started with. */
  env: Record<string, string>;
  /** How far the clock is from the host's now, in ms. */
  offsetMs(): number;
  /** Throws unless process `pid` runs on this clock: a preload that fails to load is only a warning of the dynamic loader's. */
  check(pid: number, what: string): void;
  /** Removes the folder; the process that ran on it must be gone. */
  close(): Promise<void>;
  closeSync(): void;
}

/** A clock at the host's time (offset 0), for a process started with `env` under the shim at `library`. */
export async function createMovableClock(library: string): Promise<MovableClock> {
  const dir = await makeScratchDir('clock');
  const file = path.join(dir, 'offset-ms');
  try {
    createClockFile(file);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    file,
    env: wallClockEnv(library, file),
    offsetMs: () => readClockOffsetMs(file),
    check(pid, what) {
      if (!followsClockFile(pid, library, file))
        throw new Error(`${what} (pid ${pid}) did not load the wall clock shim, so its clock cannot move`);
    },
    close: () => rm(dir, { recursive: true, force: true }),
    closeSync: () => rmSync(dir, { recursive: true, force: true }),
  };
}
