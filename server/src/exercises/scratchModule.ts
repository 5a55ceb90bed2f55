// An edited variant's compiled module on disk, in a scratch folder of its own: the workers of
// its runs read it (and may write beside it, as a variant that writes a file does), nothing
// else of theirs is readable or writable. The folder goes when its runs are over; one a
// crash left is reaped by the next start (services/scratchDir.ts).
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeScratchDir } from '../services/scratchDir.js';

export interface ScratchModule {
  /** The folder the workers may read and write (below the scratch dir, whose owner record they cannot touch). */
  folder: string;
  /** The compiled module's URL, as a worker's plan names it. */
  moduleUrl: string;
  /** Removes the folder and everything in it; never throws. */
  remove(): Promise<void>;
}

/** Writes compiled code into a new scratch folder. */
export async function writeScratchModule(code: string): Promise<ScratchModule> {
  const dir = await makeScratchDir('exercise');
  const folder = join(dir, 'run');
  await mkdir(folder);
  // Readable by a worker run as a user of its own; the confinement that drops the user gives it the folder (chown) to write in.
  await chmod(folder, 0o755);
  const file = join(folder, 'yourFix.mjs');
  await writeFile(file, code, { mode: 0o644 });
  return {
    folder,
    moduleUrl: pathToFileURL(file).href,
    remove: () => rm(dir, { recursive: true, force: true }).catch(() => undefined),
  };
}
