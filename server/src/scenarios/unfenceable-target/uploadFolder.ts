// The run's upload folder: a real directory of its own under the system's temp dir, where
// the file targets live. Removed by close(), or when this process exits first.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFixture } from '../types.js';

export interface UploadFolder extends RunFixture {
  shared: { dir: string };
  close(): Promise<void>;
}

/** The folder's name starts with the run's id ([a-f0-9] only), so it says whose it is. */
export async function createUploadFolder(runId: string): Promise<UploadFolder> {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), `racelab-uploads-${runId}-`));
  const removeSync = (): void => rmSync(dir, { recursive: true, force: true });
  process.on('exit', removeSync);
  return {
    shared: { dir },
    folders: [dir],
    async close() {
      process.off('exit', removeSync);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
